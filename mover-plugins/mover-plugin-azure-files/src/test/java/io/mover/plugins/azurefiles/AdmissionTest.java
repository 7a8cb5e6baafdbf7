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
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/** The share's admission: the concurrency limit holds, waiting is cancellable and interruptible, and no permit leaks. */
@Timeout(60)
final class AdmissionTest {

    @Test
    void aRequestWaitsForAFreePermitAndIsAdmittedWhenOneIsReleased() {
        Admission admission = new Admission(2, 0);
        Admission.Permit first = admission.await();
        Admission.Permit second = admission.await();
        Sinks.One<String> response = Sinks.one();
        CompletableFuture<String> third = admission.run(response::asMono).toFuture();
        assertThat(third).isNotDone();
        assertThat(admission.inFlightAndWaiting()).containsExactly(2, 1);
        first.release();
        first.release();   // idempotent: gives back one permit only
        assertThat(admission.inFlightAndWaiting()).containsExactly(2, 0);
        response.tryEmitValue("answered");
        assertThat(third.join()).isEqualTo("answered");
        assertThat(admission.inFlightAndWaiting()).containsExactly(1, 0);
        second.release();
        assertThat(admission.inFlightAndWaiting()).containsExactly(0, 0);
    }

    @Test
    void anInterruptEndsABlockingWaitAtOnceAndGivesUpItsPlace() throws Exception {
        Admission admission = new Admission(1, 0);
        Admission.Permit held = admission.await();
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        Thread waiter = waiter(admission, outcome);
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

    /** Cancels requests while they wait, while they are being granted and while they run; every slot comes back. */
    @Test
    void cancellationsRacingWithGrantsLeakNoPermit() throws Exception {
        Admission admission = new Admission(3, 0);
        Random random = new Random(42);
        List<Disposable> subscriptions = new ArrayList<>();
        List<Sinks.Empty<Void>> running = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int round = 0; round < 2_000; round++) {
            subscriptions.add(admission.run(() -> {
                Sinks.Empty<Void> request = Sinks.empty();
                running.add(request);
                return request.asMono();
            }).subscribe());
            if (random.nextInt(3) == 0) {
                Disposable victim = subscriptions.remove(random.nextInt(subscriptions.size()));
                Thread.ofVirtual().start(victim::dispose);
            }
            if (random.nextBoolean()) {
                synchronized (running) {
                    if (!running.isEmpty()) {
                        Sinks.Empty<Void> request = running.remove(random.nextInt(running.size()));
                        Thread.ofVirtual().start(request::tryEmitEmpty);
                    }
                }
            }
        }
        subscriptions.forEach(Disposable::dispose);
        for (int i = 0; i < 500 && admission.inFlightAndWaiting()[0] + admission.inFlightAndWaiting()[1] > 0; i++) {
            Thread.sleep(10);
        }
        assertThat(admission.inFlightAndWaiting()).containsExactly(0, 0);
    }

    @Test
    void aRequestCancelledWhileRunningGivesItsPermitBack() {
        Admission admission = new Admission(1, 0);
        Disposable running = admission.run(Mono::never).subscribe();
        CompletableFuture<String> next = admission.run(() -> Mono.just("second")).toFuture();
        assertThat(admission.inFlightAndWaiting()).containsExactly(1, 1);
        running.dispose();
        assertThat(next.join()).isEqualTo("second");
        assertThat(admission.inFlightAndWaiting()).containsExactly(0, 0);
    }

    @Test
    void theRateCapMakesRequestsWaitForTheirTokens() {
        // 10 tokens a second, 20 requests: the second ten wait about a second, however slowly this machine runs the first ten
        Admission admission = new Admission(64, 10);
        for (int i = 0; i < 20; i++) {
            admission.run(() -> Mono.just(1)).block(Duration.ofSeconds(10));
        }
        assertThat(admission.rateWaitNanos()).isGreaterThan(Duration.ofMillis(500).toNanos());
    }

    /** Requests cancelled while they wait for their rate-cap token leave the bucket as if they had never asked. */
    @Test
    void requestsCancelledWhileWaitingForTheRateCapGiveTheirTokensBack() {
        Admission admission = new Admission(64, 10);
        List<Disposable> waiting = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            waiting.add(admission.run(() -> Mono.just(1)).subscribe());
        }
        // ten went at once; twenty reserved tokens ahead, up to two seconds away
        assertThat(admission.tokens()).isLessThan(-15);
        waiting.forEach(Disposable::dispose);
        // the twenty unsent give theirs back: the next request of the share does not wait two seconds behind them
        assertThat(admission.tokens()).isGreaterThan(-1);
        assertThat(admission.inFlightAndWaiting()).containsExactly(0, 0);
    }

    /** The same for the synchronous pipeline: a thread interrupted in the rate wait, or queued behind the limit, gives its token back. */
    @Test
    void anInterruptedWaitGivesItsRateTokenAndItsPlaceBack() throws Exception {
        Admission admission = new Admission(1, 5);
        Admission.Permit held = admission.await();
        List<Thread> waiters = new ArrayList<>();
        List<CompletableFuture<Throwable>> outcomes = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            CompletableFuture<Throwable> outcome = new CompletableFuture<>();
            outcomes.add(outcome);
            waiters.add(waiter(admission, outcome));
        }
        // four tokens were left for the waiters: they queue behind the held permit; the other eight sleep in debt
        for (int i = 0; i < 500 && (admission.inFlightAndWaiting()[1] < 4 || admission.tokens() > -7.5); i++) {
            Thread.sleep(10);
        }
        assertThat(admission.inFlightAndWaiting()).containsExactly(1, 4);
        waiters.forEach(Thread::interrupt);
        for (CompletableFuture<Throwable> outcome : outcomes) {
            assertThat(outcome.get(10, TimeUnit.SECONDS)).isInstanceOf(MoverException.class);
        }
        assertThat(admission.inFlightAndWaiting()).containsExactly(1, 0);
        assertThat(admission.tokens()).as("every interrupted waiter's token is back").isGreaterThan(3.5);
        held.release();
        assertThat(admission.inFlightAndWaiting()).containsExactly(0, 0);
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

    /** A thread waiting for its turn: {@code outcome} gets null once granted (the permit released), or the error, which must leave it interrupted. */
    private static Thread waiter(Admission admission, CompletableFuture<Throwable> outcome) {
        return Thread.ofVirtual().start(() -> {
            try {
                admission.await().release();
                outcome.complete(null);
            }
            catch (RuntimeException e) {
                outcome.complete(Thread.currentThread().isInterrupted() ? e : new AssertionError("the interrupt was lost", e));
            }
        });
    }
}
