package io.mover.jobstore.service;

import java.util.Map;

import io.mover.core.engine.PluginCounterSampler;
import io.mover.core.engine.PreparedJob;
import io.mover.core.service.JobId;

/**
 * Puts what the endpoints' plugins counted (requests, throttled responses, retransmissions) into the job store, so
 * that a durable job's summary shows them as a standalone run's does. A unit's attempt adds its run's counters when
 * the run ends; the driver (its listing) and the finisher (folder times), through {@link #close()}, when they are
 * done with their endpoints. Each opens endpoints of its own, so nothing is counted twice. Counters never fail the
 * work they describe.
 */
final class EndpointCounters implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(EndpointCounters.class.getName());

    private final Durable durable;
    private final JobId id;
    private final PluginCounterSampler sampler;

    EndpointCounters(Durable durable, JobId id, PreparedJob job) {
        this.durable = durable;
        this.id = id;
        this.sampler = new PluginCounterSampler(job.source(), job.sink());
    }

    static void add(Durable durable, JobId id, Map<String, Long> counters) {
        try {
            durable.store.addPluginCounters(id, counters);
        }
        catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "could not record the plugin counters of job " + id + ": " + e.getMessage());
        }
    }

    @Override
    public void close() {
        add(durable, id, sampler.sample());
    }
}
