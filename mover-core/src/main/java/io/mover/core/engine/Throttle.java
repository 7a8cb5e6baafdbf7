package io.mover.core.engine;

import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * A token bucket shared by every worker of one job: each block asks for its bytes before it is
 * written, and waits until the bucket has them. Kept as the time the bucket is next empty (a
 * "virtual schedule") rather than a token count, so one lock-protected add per block is all it costs,
 * and a short burst (one slice) is allowed after idle time so small files do not pay a wait each.
 * The rate may change at any time; waits already promised at the old rate are cut short.
 */
final class Throttle {
    /** The burst a bucket holds after idling: what it may send at once without waiting. */
    private static final long BURST_NANOS = 50_000_000L;
    /** Waits sleep in slices this long, so a cancel, a resume or a new rate is seen quickly. */
    private static final long SLICE_NANOS = 50_000_000L;

    private long bytesPerSecond;
    /** When the bytes promised so far have all "left" at the current rate. */
    private long nextFreeNanos = System.nanoTime();
    /** Bumped on every rate change, so waiters re-plan at the new rate. */
    private long generation;

    Throttle(long bytesPerSecond) {
        this.bytesPerSecond = bytesPerSecond;
    }

    synchronized long rate() {
        return bytesPerSecond;
    }

    /** 0 lifts the cap. */
    synchronized void rate(long value) {
        bytesPerSecond = value;
        nextFreeNanos = Math.min(nextFreeNanos, System.nanoTime());
        generation++;
    }

    /**
     * Waits until {@code bytes} may pass. Returns early when {@code stopped} turns true.
     *
     * @return nanoseconds spent waiting
     */
    long acquire(int bytes, BooleanSupplier stopped) {
        long start = System.nanoTime();
        while (true) {
            long deadline;
            long planned;
            synchronized (this) {
                if (bytesPerSecond <= 0) {
                    return System.nanoTime() - start;
                }
                long now = System.nanoTime();
                nextFreeNanos = Math.max(nextFreeNanos, now - BURST_NANOS);
                deadline = nextFreeNanos;
                nextFreeNanos += (long) (bytes * 1e9 / bytesPerSecond);
                planned = generation;
            }
            while (true) {
                long left = deadline - System.nanoTime();
                if (left <= 0 || stopped.getAsBoolean()) {
                    return System.nanoTime() - start;
                }
                LockSupport.parkNanos(Math.min(left, SLICE_NANOS));
                if (Thread.currentThread().isInterrupted()) {
                    return System.nanoTime() - start;
                }
                synchronized (this) {
                    if (generation != planned) {
                        break; // the rate changed: plan this block again at the new rate
                    }
                }
            }
        }
    }
}
