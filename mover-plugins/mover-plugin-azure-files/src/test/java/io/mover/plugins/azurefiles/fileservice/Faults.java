package io.mover.plugins.azurefiles.fileservice;

import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * What the double injects to behave like a busy share: a fixed latency per request, a bandwidth limit
 * shared by all requests (request and response bodies), an operations-per-second limit answered with
 * 503 ServerBusy as the service does past its IOPS limit (or every request refused so, {@link #serverBusy}), and a
 * dropped connection every N requests.
 * All settings can change while the server runs.
 */
public final class Faults {
    public volatile long latencyNanos;
    public volatile long bytesPerSecond;
    public volatile int operationsPerSecond;
    public volatile int dropEvery;
    public volatile int retryAfterSeconds = -1;
    /** Every request is answered 503 ServerBusy (a share far over its limits), until cleared. */
    public volatile boolean serverBusy;
    private final AtomicLong requests = new AtomicLong();
    private static final long NO_TRANSFER = Long.MIN_VALUE;
    /** When the limit is free again; {@link #NO_TRANSFER} until the first transfer reserves it. */
    private final AtomicLong nextFreeNanos = new AtomicLong(NO_TRANSFER);
    private final AtomicLong firstTransferNanos = new AtomicLong();
    private final AtomicLong idleNanos = new AtomicLong();
    private double tokens;
    private long lastRefill = System.nanoTime();

    boolean dropNow() {
        int every = dropEvery;
        return every > 0 && requests.incrementAndGet() % every == 0;
    }

    void delay() {
        if (latencyNanos > 0) {
            LockSupport.parkNanos(latencyNanos);
        }
    }

    /**
     * How busy the bandwidth limit was (for benchmarks: a limit idle while bodies are still to come is time the
     * client lost): milliseconds from the first transfer's start to the last one's end, and of them idle.
     */
    Map<String, Long> bandwidthUse() {
        if (nextFreeNanos.get() == NO_TRANSFER) {
            return Map.of();
        }
        return Map.of("bandwidth-span-ms", (nextFreeNanos.get() - firstTransferNanos.get()) / 1_000_000,
                "bandwidth-idle-ms", idleNanos.get() / 1_000_000);
    }

    /** A token bucket holding one second of operations: false when the request is over the limit. */
    synchronized boolean admit() {
        int limit = operationsPerSecond;
        if (limit <= 0) {
            return true;
        }
        long now = System.nanoTime();
        tokens = Math.min(limit, tokens + (now - lastRefill) * limit / 1e9);
        lastRefill = now;
        if (tokens < 1) {
            return false;
        }
        tokens -= 1;
        return true;
    }

    /** Paces {@code bytes} through the shared bandwidth: each transfer reserves its slot on one virtual clock. */
    void transfer(long bytes) {
        long rate = bytesPerSecond;
        if (rate <= 0 || bytes <= 0) {
            return;
        }
        long cost = bytes * 1_000_000_000L / rate;
        long now = System.nanoTime();
        long start = nextFreeNanos.getAndAccumulate(cost, (next, add) -> Math.max(next, now) + add);
        // the first transfer is the one that found no reservation, decided in the same atomic step: a count taken
        // after it let a concurrent second one count the time since the double started as idle
        if (start == NO_TRANSFER) {
            firstTransferNanos.set(now);
        }
        else if (start < now) {
            idleNanos.addAndGet(now - start);   // the limit sent nothing between the previous transfer's end and now
        }
        long end = Math.max(start, now) + cost;
        long wait = end - System.nanoTime();
        if (wait > 0) {
            LockSupport.parkNanos(wait);
        }
    }
}
