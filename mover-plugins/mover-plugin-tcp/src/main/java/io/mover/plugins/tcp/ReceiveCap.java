package io.mover.plugins.tcp;

import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * The receiver's bandwidth cap ({@code mover receive --cap-mbps}): a token bucket over the bytes of every
 * block that arrives, shared by all connections. A worker waits here before it writes a block, so the
 * block's acknowledgement comes later, the sender's window fills and the sender slows down: the cap holds
 * on the link whatever the senders ask for. Kept as the time the bucket is next empty, with a burst of
 * 50 ms after idle time. Thread-safe; waits happen on worker threads, never on an event loop.
 */
final class ReceiveCap {
    static final ReceiveCap NONE = new ReceiveCap(0, System::nanoTime, LockSupport::parkNanos);
    private static final long BURST_NANOS = 50_000_000L;

    private final long bytesPerSecond;
    private final LongSupplier clock;
    private final LongConsumer sleeper;
    private long nextFreeNanos;

    /**
     * @param bytesPerSecond 0 for no cap
     * @param clock nanoseconds, as {@link System#nanoTime()}
     * @param sleeper waits the given nanoseconds
     */
    ReceiveCap(long bytesPerSecond, LongSupplier clock, LongConsumer sleeper) {
        this.bytesPerSecond = bytesPerSecond;
        this.clock = clock;
        this.sleeper = sleeper;
        this.nextFreeNanos = clock.getAsLong();
    }

    static ReceiveCap of(double megabitsPerSecond) {
        return megabitsPerSecond <= 0 ? NONE : new ReceiveCap(Math.round(megabitsPerSecond * 125_000), System::nanoTime, LockSupport::parkNanos);
    }

    long bytesPerSecond() {
        return bytesPerSecond;
    }

    /** Waits until {@code bytes} more may arrive. */
    void acquire(long bytes) {
        if (bytesPerSecond <= 0) {
            return;
        }
        long wait;
        synchronized (this) {
            long now = clock.getAsLong();
            nextFreeNanos = Math.max(nextFreeNanos, now - BURST_NANOS);
            wait = nextFreeNanos - now;
            nextFreeNanos += (long) (bytes * 1e9 / bytesPerSecond);
        }
        // bounded: at most the bytes already promised to others, at the cap's rate (a window's worth per connection)
        while (wait > 0) {
            long start = clock.getAsLong();
            sleeper.accept(wait);
            wait -= Math.max(1, clock.getAsLong() - start);
        }
    }
}
