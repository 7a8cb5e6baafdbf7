package io.mover.core.engine;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import io.mover.spi.PluginCounters;
import io.mover.spi.Sink;
import io.mover.spi.Source;

/**
 * Reads the {@link PluginCounters} of a run's endpoints: each sample returns the counters named by side
 * ({@code source.NAME}, {@code destination.NAME}) and adds what grew since the last sample to the process-wide
 * totals of {@link EngineStats}, so metrics see each increment once however often a job is sampled. A plugin
 * whose counters fail is reported without them (it must not fail the job it reports on). Public for the durable
 * job service, whose driver lists the endpoints outside a run.
 */
public final class PluginCounterSampler {
    private static final System.Logger LOG = System.getLogger(PluginCounterSampler.class.getName());

    private final Optional<PluginCounters> source;
    private final Optional<PluginCounters> destination;
    private final Map<String, Long> last = new HashMap<>();

    public PluginCounterSampler(Source source, Optional<Sink> sink) {
        this.source = source instanceof PluginCounters counters ? Optional.of(counters) : Optional.empty();
        this.destination = sink.filter(PluginCounters.class::isInstance).map(PluginCounters.class::cast);
    }

    /** The counters now, sorted by name; empty when neither endpoint counts anything. */
    public synchronized Map<String, Long> sample() {
        Map<String, Long> now = new TreeMap<>();
        read("source.", source, now);
        read("destination.", destination, now);
        now.forEach((name, value) -> {
            long before = last.getOrDefault(name, 0L);
            if (value > before) {
                EngineStats.pluginCounted(name, value - before);
                last.put(name, value);
            }
        });
        return now;
    }

    private static void read(String side, Optional<PluginCounters> endpoint, Map<String, Long> into) {
        if (endpoint.isEmpty()) {
            return;
        }
        try {
            endpoint.get().counters().forEach((name, value) -> {
                if (name != null && value != null) {
                    into.put(side + name, value);
                }
            });
        }
        catch (RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "a plugin's counters failed: " + e);
        }
    }
}
