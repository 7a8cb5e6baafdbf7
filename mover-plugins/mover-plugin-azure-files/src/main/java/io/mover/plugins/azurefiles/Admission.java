package io.mover.plugins.azurefiles;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

import reactor.core.publisher.Mono;
import reactor.core.publisher.SignalType;

import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

/**
 * When a request to one share may go: at most {@code limit} requests in flight, a limit that adapts (AIMD: it halves
 * on throttling, at most once per 100 ms, and grows by 1/limit per success), and an optional cap on requests per
 * second (a token bucket that reserves: a request over the cap waits exactly until its token is due).
 *
 * <p>Why a {@link Mono} and not a lock: the SDK runs parts of its pipeline on Reactor and HTTP client threads, and a
 * request sent again after throttling is admitted on a timer thread. Blocking any of those (as a semaphore would)
 * stalls unrelated requests and cannot be cancelled. {@link #run} never blocks a thread: the request starts when it
 * may go, and cancelling it gives up its place in the queue at once. The SDK's synchronous pipeline waits with
 * {@link #await()}, which an interrupt ends.
 *
 * <p>Why {@link #run} takes the request instead of handing out a permit: a permit emitted as a value can be dropped
 * by Reactor when the subscriber is disposed while the value is on its way (the lambda subscriber drops it, it is
 * not "discarded"), and a dropped permit is never given back; a leak that shrank the limit to nothing, found by
 * {@code AdmissionTest} in CI. Here the slot is tied to the subscription: whatever ends it (completion, error,
 * cancel, before or after the grant) gives the slot back, exactly once.
 *
 * <p>Thread-safe. Requests are admitted in the order they asked.
 */
final class Admission {
    private static final long DECREASE_EVERY_NANOS = 100_000_000L;

    private final ReentrantLock lock = new ReentrantLock();
    private final ArrayDeque<Slot> queue = new ArrayDeque<>();
    private final int maxConcurrency;
    private final int requestsPerSecond;
    private final LongAdder rateWaitNanos = new LongAdder();
    private double limit;
    private int inFlight;
    private long lastDecrease = System.nanoTime() - DECREASE_EVERY_NANOS;
    private double tokens;
    private long lastRefill = System.nanoTime();

    Admission(int maxConcurrency, int requestsPerSecond) {
        this.maxConcurrency = maxConcurrency;
        this.requestsPerSecond = requestsPerSecond;
        this.limit = maxConcurrency;
        this.tokens = requestsPerSecond;
    }

    /** The right to have one request in flight (from {@link #await()}); {@link #release()} gives it back once, however often it is called. */
    interface Permit {
        void release();
    }

    /** One request's place: waiting in the queue, granted by {@link #drain}, then done (given back or given up), in that order or straight to done. */
    private final class Slot implements Permit {
        static final int WAITING = 0;
        static final int GRANTED = 1;
        static final int DONE = 2;
        final AtomicInteger state = new AtomicInteger(WAITING);
        final CompletableFuture<Void> granted = new CompletableFuture<>();
        /** Whether it took a token of the rate cap: one that ends unsent gives it back. */
        final boolean token;

        Slot(boolean token) {
            this.token = token;
        }

        /** Ends this place whatever its state: leaves the queue if still waiting, gives the permit back if granted. */
        @Override
        public void release() {
            int was = state.getAndSet(DONE);
            if (was == DONE) {
                return;
            }
            lock.lock();
            try {
                if (was == WAITING) {
                    queue.remove(this);
                    if (token) {
                        refundTokenLocked();
                    }
                }
                else {
                    inFlight--;
                }
            }
            finally {
                lock.unlock();
            }
            if (was == GRANTED) {
                drain();
            }
        }
    }

    /**
     * Subscribes to {@code request} once the rate cap and the concurrency limit let it go, and holds its place until
     * it ends. Never blocks. Cancelling the returned Mono, before or after the grant, gives the place back.
     */
    <T> Mono<T> run(Supplier<? extends Mono<T>> request) {
        if (requestsPerSecond <= 0) {
            return admitted(request, false);
        }
        return Mono.defer(() -> {
            long wait = reserveToken();
            if (wait <= 0) {
                return admitted(request, true);
            }
            long start = System.nanoTime();
            // cancelled during the wait: the request never goes, and its reserved token is given back
            return Mono.delay(Duration.ofNanos(wait)).doFinally(signal -> {
                rateWaitNanos.add(System.nanoTime() - start);
                if (signal != SignalType.ON_COMPLETE) {
                    refundToken();
                }
            }).then(admitted(request, true));
        });
    }

    /** The request once a concurrency slot is free; {@code token} when it holds a token of the rate cap. */
    private <T> Mono<T> admitted(Supplier<? extends Mono<T>> request, boolean token) {
        return Mono.defer(() -> {
            Slot slot = enqueue(token);
            return Mono.fromFuture(slot.granted, true).then(Mono.defer(request)).doFinally(signal -> slot.release());
        });
    }

    /**
     * Waits on the calling thread (an engine thread in the SDK's synchronous pipeline) until the request may go.
     *
     * @throws MoverException {@link ErrorCode#CANCELLED} when the thread is interrupted; it stays interrupted
     */
    Permit await() {
        boolean token = requestsPerSecond > 0;
        long wait = token ? reserveToken() : 0;
        Slot slot = null;
        try {
            if (wait > 0) {
                long start = System.nanoTime();
                try {
                    Thread.sleep(Duration.ofNanos(wait));
                }
                finally {
                    rateWaitNanos.add(System.nanoTime() - start);
                }
            }
            slot = enqueue(token);
            slot.granted.get();
            return slot;
        }
        catch (InterruptedException e) {
            if (slot != null) {
                slot.release();   // gives the token back too, unless the grant came first
            }
            else if (token) {
                refundToken();
            }
            Thread.currentThread().interrupt();
            throw new MoverException(ErrorCode.CANCELLED, "interrupted while waiting for a turn to send to Azure Files");
        }
        catch (ExecutionException e) {
            throw new IllegalStateException("a permit's future never fails", e);
        }
    }

    private Slot enqueue(boolean token) {
        Slot slot = new Slot(token);
        lock.lock();
        try {
            queue.add(slot);
        }
        finally {
            lock.unlock();
        }
        drain();
        return slot;
    }

    /** Grants permits in order while the limit allows; completes them outside the lock (their requests may start at once). */
    private void drain() {
        List<Slot> granted = new ArrayList<>();
        lock.lock();
        try {
            while (inFlight < Math.max(1, (int) limit) && !queue.isEmpty()) {
                Slot next = queue.poll();
                if (next.state.compareAndSet(Slot.WAITING, Slot.GRANTED)) {
                    inFlight++;
                    granted.add(next);
                }
            }
        }
        finally {
            lock.unlock();
        }
        for (Slot slot : granted) {
            slot.granted.complete(null);
        }
    }

    /** Takes one token of the rate cap, in debt if need be; returns the nanoseconds until that token is due. */
    private long reserveToken() {
        lock.lock();
        try {
            long now = System.nanoTime();
            tokens = Math.min(requestsPerSecond, tokens + (now - lastRefill) * requestsPerSecond / 1e9);
            lastRefill = now;
            tokens -= 1;
            return tokens >= 0 ? 0 : (long) (-tokens * 1e9 / requestsPerSecond);
        }
        finally {
            lock.unlock();
        }
    }

    /**
     * Gives back a token reserved by a request that was never sent (cancelled or interrupted before its turn):
     * the reservation put the bucket in debt, and left there it would delay every later request of the share.
     */
    private void refundToken() {
        lock.lock();
        try {
            refundTokenLocked();
        }
        finally {
            lock.unlock();
        }
    }

    private void refundTokenLocked() {
        tokens = Math.min(requestsPerSecond, tokens + 1);
    }

    /** A request went through: the limit grows back by 1/limit, up to the configured maximum. */
    void succeeded() {
        lock.lock();
        try {
            limit = Math.min(maxConcurrency, limit + 1 / limit);
        }
        finally {
            lock.unlock();
        }
        drain();
    }

    /** The share throttled a request: the limit halves, once per burst of refusals. */
    void throttled() {
        lock.lock();
        try {
            long now = System.nanoTime();
            if (now - lastDecrease > DECREASE_EVERY_NANOS) {
                limit = Math.max(1, limit / 2);
                lastDecrease = now;
            }
        }
        finally {
            lock.unlock();
        }
    }

    int currentLimit() {
        lock.lock();
        try {
            return (int) limit;
        }
        finally {
            lock.unlock();
        }
    }

    /** Requests in flight now, and requests waiting for a turn (for tests). */
    int[] inFlightAndWaiting() {
        lock.lock();
        try {
            return new int[] {inFlight, queue.size()};
        }
        finally {
            lock.unlock();
        }
    }

    /** The rate cap's tokens now, negative when reserved ahead (for tests). */
    double tokens() {
        lock.lock();
        try {
            return tokens;
        }
        finally {
            lock.unlock();
        }
    }

    long rateWaitNanos() {
        return rateWaitNanos.sum();
    }
}
