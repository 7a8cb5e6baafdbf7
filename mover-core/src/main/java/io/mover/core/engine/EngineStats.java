package io.mover.core.engine;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Process-wide figures of the engine that no single job owns, for metrics (as the JDK's
 * {@code BufferPoolMXBean} is for NIO buffers): retries taken so far, the bytes of block buffers
 * jobs hold right now, and the plugins' own counters. Counters only grow or follow acquire and release; reading them is cheap and
 * never blocks a transfer.
 */
public final class EngineStats {
    private static final LongAdder RETRIES = new LongAdder();
    private static final LongAdder BUFFER_BYTES_IN_USE = new LongAdder();
    private static final Map<String, LongAdder> PLUGIN_COUNTERS = new ConcurrentHashMap<>();

    private EngineStats() {}

    /** Retries of every job since the process started. */
    public static long retries() {
        return RETRIES.sum();
    }

    /** Bytes of block buffers (raw and encoded) held by blocks in flight, over all jobs. */
    public static long bufferBytesInUse() {
        return BUFFER_BYTES_IN_USE.sum();
    }

    /**
     * Totals of the plugins' {@link io.mover.spi.PluginCounters} over every job since the process started, by
     * side and name ({@code destination.azure-files.throttled-503}); a name appears once a job reported it.
     */
    public static Map<String, Long> pluginCounters() {
        Map<String, Long> totals = new TreeMap<>();
        PLUGIN_COUNTERS.forEach((name, total) -> totals.put(name, total.sum()));
        return totals;
    }

    /** The total of one plugin counter (0 when none was reported), for a metrics registry that reads it when scraped. */
    public static long pluginCounter(String name) {
        LongAdder total = PLUGIN_COUNTERS.get(name);
        return total == null ? 0 : total.sum();
    }

    static void pluginCounted(String name, long delta) {
        PLUGIN_COUNTERS.computeIfAbsent(name, key -> new LongAdder()).add(delta);
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
