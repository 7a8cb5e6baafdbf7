package io.mover.spi;

import java.util.Map;

/**
 * An optional ability of a {@link Source} or {@link Sink}: counts of what happened inside the plugin that the
 * engine cannot see (requests a service throttled, time spent waiting them out, calls sent again), which the
 * engine adds to the job's summary and to the process's metrics.
 *
 * <h2>Contract</h2>
 * <ul>
 * <li>Each value is cumulative since the endpoint was created and never decreases (a counter, not a gauge).</li>
 * <li>Names start with the plugin's name and use lower-case letters, digits, {@code -} and {@code .}
 *     ({@code azure-files.throttled-503}, {@code nfs.retransmits}); a name whose value is a duration ends with its
 *     unit ({@code -ms}). The set of names may grow while the endpoint lives; a name once reported stays.</li>
 * <li>Cheap and non-blocking: the engine calls it while the job runs (with each progress report) and when the job
 *     (or a unit of a durable job) ends, before {@link Sink#close()} / {@link Source#close()}, from any thread,
 *     concurrently with every other method.</li>
 * <li>The engine reports the values as the plugin gives them, under the side they came from ({@code source.},
 *     {@code destination.}); it never interprets them.</li>
 * </ul>
 *
 * @since 1.2
 */
public interface PluginCounters {
    /** The counters so far, by name; an empty map when there is nothing to report yet. */
    Map<String, Long> counters();
}
