package io.mover.core.service;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import io.mover.core.engine.JobListener;
import io.mover.core.engine.JobSpec;
import io.mover.core.engine.JobState;
import io.mover.core.engine.JobSummary;
import io.mover.core.plugin.PluginDescriptor;

/**
 * The one façade the CLI and the REST API call (as Kafka Connect's herder is for its REST API and CLI).
 * Implementations are thread-safe.
 */
public interface JobService extends AutoCloseable {
    /**
     * Validates and queues a job. Everything that can be checked before work starts is checked here
     * (locations, schemes, options, plugin configuration), and fails with a {@link io.mover.spi.MoverException}
     * of category USER or NOT_FOUND; the job is then not created.
     */
    JobView submit(JobSpec spec);

    /**
     * Like {@link #submit(JobSpec)}, with {@code listener} subscribed before the job starts, so it
     * misses none of the job's events (a dry run's first planned copies come within milliseconds).
     * This default subscribes after submitting; implementations that can should close that gap.
     */
    default JobView submit(JobSpec spec, JobListener listener) {
        JobView view = submit(spec);
        subscribe(view.id(), listener);
        return view;
    }

    Optional<JobView> get(JobId id);

    /** Jobs, newest first, optionally only those in {@code state}. */
    List<JobView> list(Optional<JobState> state, int offset, int limit);

    /** Asks a job to stop at the next block boundary. Cancelling an ended job changes nothing. */
    JobView cancel(JobId id);

    /**
     * Calls {@code listener} with each progress of the job from now on, until it ends (the last call
     * carries its terminal state). Close the returned handle to stop listening.
     */
    AutoCloseable subscribe(JobId id, JobListener listener);

    /** Waits until the job ends, at most {@code timeout}; empty if it has not ended by then. */
    Optional<JobSummary> await(JobId id, Duration timeout) throws InterruptedException;

    List<PluginDescriptor> plugins();

    /** Cancels running jobs and waits a bounded time for them to release their resources. */
    @Override
    void close();
}
