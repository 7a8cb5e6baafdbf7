package io.mover.plugins.azurefiles;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import reactor.core.Disposable;

/** The share's admission: the concurrency limit holds, waiting is cancellable and interruptible, and no permit leaks. */
@Timeout(60)
final class AdmissionTest {

    @Test
    void aRequestWaitsForAFreePermitAndIsAdmittedWhenOneIsReleased() {
        Admission admission = new Admission(2, 0);
        Admission.Permit first = admission.admit().block();
        Admission.Permit second = admission.admit().block();
        CompletableFuture<Admission.Permit> third = admission.admit().toFuture();
        assertThat(third).isNotDone();
        assertThat(admission.inFlightAndWaiting()).containsExactly(2, 1);
        first.release();
        first.release();   // idempotent: gives back one permit only
        assertThat(third.join()).isNotNull();
        assertThat(admission.inFlightAndWaiting()).containsExactly(2, 0);
        second.release();
        third.join().release();
        assertThat(admission.inFlightAndWaiting()).containsExactly(0, 0);
    }

    @Test
    void anInterruptEndsABlockingWaitAtOnceAndGivesUpItsPlace() throws Exception {
        Admission admission = new Admission(1, 0);
        Admission.Permit held = admission.await();
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        Thread waiter = Thread.ofVirtual().start(() -> {
            try {
                admission.await();
                outcome.complete(null);
            }
            catch (RuntimeException e) {
                outcome.complete(Thread.currentThread().isInterrupted() ? e : new AssertionError("the interrupt was lost", e));
            }
        });
        for (int i = 0; i < 500 && admission.inFlightAndWaiting()[1] == 0; i++) {
            Thread.sleep(10);
        }
        assertThat(admission.inFlightAndWaiting()).containsExactly(1, 1);
        waiter.interrupt();
        Throwable failure = outcome.get(10, TimeUnit.SECONDS);
        assertThat(failure).isInstanceOf(MoverException.class).extracting(e -> ((MoverException) e).code()).isEqualTo(ErrorCode.CANCELLED);
        assertThat(admission.inFlightAndWaiting()).containsExactly(1, 0);
        held.release();
        assertThat(admission.inFlightAndWaiting()).containsExactly(0, 0);
    }

    @Test
    void cancellationsRacingWithGrantsLeakNoPermit() throws Exception {
        Admission admission = new Admission(3, 0);
        Random random = new Random(42);
        List<Disposable> subscriptions = new ArrayList<>();
        List<Admission.Permit> granted = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int round = 0; round < 2_000; round++) {
            subscriptions.add(admission.admit().subscribe(granted::add));
            if (random.nextInt(3) == 0 && !subscriptions.isEmpty()) {
                subscriptions.remove(random.nextInt(subscriptions.size())).dispose();
            }
            if (random.nextBoolean()) {
                synchronized (granted) {
                    if (!granted.isEmpty()) {
                        Admission.Permit permit = granted.remove(random.nextInt(granted.size()));
                        Thread.ofVirtual().start(permit::release);
                    }
                }
            }
        }
        subscriptions.forEach(Disposable::dispose);
        for (int i = 0; i < 500; i++) {
            synchronized (granted) {
                granted.forEach(Admission.Permit::release);
                granted.clear();
            }
            if (admission.inFlightAndWaiting()[0] == 0) {
                break;
            }
            Thread.sleep(10);
        }
        assertThat(admission.inFlightAndWaiting()).containsExactly(0, 0);
    }

    @Test
    void theRateCapMakesRequestsWaitForTheirTokens() {
        Admission admission = new Admission(64, 50);
        for (int i = 0; i < 60; i++) {
            admission.admit().block(Duration.ofSeconds(10)).release();
        }
        assertThat(admission.rateWaitNanos()).isPositive();
    }

    @Test
    void throttlingHalvesTheLimitOncePerBurstAndSuccessGrowsItBack() {
        Admission admission = new Admission(64, 0);
        admission.throttled();
        admission.throttled();
        assertThat(admission.currentLimit()).isEqualTo(32);
        for (int i = 0; i < 2_000; i++) {
            admission.succeeded();
        }
        assertThat(admission.currentLimit()).isEqualTo(64);
    }
}
