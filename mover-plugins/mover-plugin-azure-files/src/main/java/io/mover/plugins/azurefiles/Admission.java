package io.mover.plugins.azurefiles;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

import reactor.core.Exceptions;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;

import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

/**
 * When a request to one share may go: at most {@code limit} requests in flight, a limit that adapts (AIMD: it halves
 * on throttling, at most once per 100 ms, and grows by 1/limit per success), and an optional cap on requests per
 * second (a token bucket that reserves: a request over the cap waits exactly until its token is due).
 *
 * <p>Why a {@link Mono} and not a lock: the SDK runs parts of its pipeline on Reactor and HTTP client threads, and a
 * request sent again after throttling is admitted on a timer thread. Blocking any of those (as a semaphore would)
 * stalls unrelated requests and cannot be cancelled. {@link #admit()} never blocks a thread: it completes when the
 * request may go, and cancelling it (a disposed subscription, an interrupted {@code block()}) gives up its place in
 * the queue at once. The SDK's synchronous pipeline waits with {@link #await()}, which an interrupt ends.
 *
 * <p>Thread-safe. Requests are admitted in the order they asked.
 */
final class Admission {
    private static final long DECREASE_EVERY_NANOS = 100_000_000L;

    private final ReentrantLock lock = new ReentrantLock();
    private final ArrayDeque<Waiter> queue = new ArrayDeque<>();
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

    /** The right to have one request in flight; {@link #release()} gives it back, once, whoever calls it how often. */
    final class Permit {
        private final AtomicBoolean released = new AtomicBoolean();

        void release() {
            if (released.compareAndSet(false, true)) {
                lock.lock();
                try {
                    inFlight--;
                }
                finally {
                    lock.unlock();
                }
                drain();
            }
        }
    }

    /** One request waiting for a permit: granted (by {@link #drain}) or cancelled (by its subscriber), whichever comes first. */
    private static final class Waiter {
        static final int WAITING = 0;
        static final int GRANTED = 1;
        static final int CANCELLED = 2;
        final MonoSink<Permit> sink;
        final AtomicInteger state = new AtomicInteger(WAITING);

        Waiter(MonoSink<Permit> sink) {
            this.sink = sink;
        }
    }

    /**
     * Completes with a permit once the rate cap and the concurrency limit let the request go. Never blocks. A permit
     * granted to a subscriber that cancelled meanwhile is discarded by Reactor and released here.
     */
    Mono<Permit> admit() {
        Mono<Permit> permit = Mono.<Permit>create(sink -> {
            Waiter waiter = new Waiter(sink);
            sink.onCancel(() -> cancelled(waiter));
            lock.lock();
            try {
                queue.add(waiter);
            }
            finally {
                lock.unlock();
            }
            drain();
        }).doOnDiscard(Permit.class, Permit::release);
        if (requestsPerSecond <= 0) {
            return permit;
        }
        return Mono.defer(() -> {
            long wait = reserveToken();
            if (wait <= 0) {
                return permit;
            }
            long start = System.nanoTime();
            return Mono.delay(Duration.ofNanos(wait)).doFinally(signal -> rateWaitNanos.add(System.nanoTime() - start)).then(permit);
        });
    }

    /**
     * Waits on the calling thread (an engine thread in the SDK's synchronous pipeline) until the request may go.
     *
     * @throws MoverException {@link ErrorCode#CANCELLED} when the thread is interrupted; it stays interrupted
     */
    Permit await() {
        try {
            return admit().block();
        }
        catch (RuntimeException e) {
            if (Exceptions.unwrap(e) instanceof InterruptedException || Thread.currentThread().isInterrupted()) {
                Thread.currentThread().interrupt();
                throw new MoverException(ErrorCode.CANCELLED, "interrupted while waiting for a turn to send to Azure Files");
            }
            throw e;
        }
    }

    private void cancelled(Waiter waiter) {
        if (waiter.state.compareAndSet(Waiter.WAITING, Waiter.CANCELLED)) {
            lock.lock();
            try {
                queue.remove(waiter);
            }
            finally {
                lock.unlock();
            }
        }
    }

    /** Grants permits to waiters in order while the limit allows; completes them outside the lock (they may send at once). */
    private void drain() {
        List<Waiter> granted = new ArrayList<>();
        lock.lock();
        try {
            while (inFlight < Math.max(1, (int) limit) && !queue.isEmpty()) {
                Waiter next = queue.poll();
                if (next.state.compareAndSet(Waiter.WAITING, Waiter.GRANTED)) {
                    inFlight++;
                    granted.add(next);
                }
            }
        }
        finally {
            lock.unlock();
        }
        for (Waiter waiter : granted) {
            waiter.sink.success(new Permit());
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

    long rateWaitNanos() {
        return rateWaitNanos.sum();
    }
}
