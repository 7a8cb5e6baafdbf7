package io.mover.core.engine;

import java.util.concurrent.atomic.LongAdder;

/**
 * Process-wide figures of the engine that no single job owns, for metrics (as the JDK's
 * {@code BufferPoolMXBean} is for NIO buffers): retries taken so far, and the bytes of block buffers
 * jobs hold right now. Counters only grow or follow acquire and release; reading them is cheap and
 * never blocks a transfer.
 */
public final class EngineStats {
    private static final LongAdder RETRIES = new LongAdder();
    private static final LongAdder BUFFER_BYTES_IN_USE = new LongAdder();

    private EngineStats() {}

    /** Retries of every job since the process started. */
    public static long retries() {
        return RETRIES.sum();
    }

    /** Bytes of block buffers (raw and encoded) held by blocks in flight, over all jobs. */
    public static long bufferBytesInUse() {
        return BUFFER_BYTES_IN_USE.sum();
    }

    static void retried() {
        RETRIES.increment();
    }

    static void buffersAcquired(long bytes) {
        BUFFER_BYTES_IN_USE.add(bytes);
    }

    static void buffersReleased(long bytes) {
        BUFFER_BYTES_IN_USE.add(-bytes);
    }
}
