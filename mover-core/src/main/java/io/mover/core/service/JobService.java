package io.mover.core.service;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import io.mover.core.engine.JobKind;
import io.mover.core.engine.JobListener;
import io.mover.core.engine.JobSpec;
import io.mover.core.engine.JobState;
import io.mover.core.engine.JobSummary;
import io.mover.core.plugin.PluginDescriptor;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

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

    /**
     * The job's view when this service has one at hand without blocking (in memory, or a cached view that may
     * be up to a couple of seconds old), else empty; then {@link #get} answers, possibly blocking. Lets a
     * caller on an event loop answer most polls without handing them to a thread that may block.
     */
    default Optional<JobView> peek(JobId id) {
        return Optional.empty();
    }

    /** Jobs, newest first, optionally only those in {@code state}. */
    List<JobView> list(Optional<JobState> state, int offset, int limit);

    /** Jobs, newest first, optionally only those in {@code state} and of {@code kind}. This default filters {@link #list(Optional, int, int)}. */
    default List<JobView> list(Optional<JobState> state, Optional<JobKind> kind, int offset, int limit) {
        if (kind.isEmpty()) {
            return list(state, offset, limit);
        }
        return list(state, 0, Integer.MAX_VALUE).stream().filter(view -> view.spec().kind() == kind.get())
                .skip(Math.max(0, offset)).limit(Math.max(0, limit)).toList();
    }

    /**
     * A job's report as JSON, for kinds that make one (a bench's measurement, once it succeeded); empty for
     * others and before it exists.
     *
     * @throws MoverException NOT_FOUND when there is no such job
     */
    default Optional<String> report(JobId id) {
        get(id).orElseThrow(() -> new MoverException(ErrorCode.NOT_FOUND, "no job " + id));
        return Optional.empty();
    }

    /**
     * Jobs started by the schedule {@code scheduleId}, newest first, optionally only those in {@code state}. This default
     * filters {@link #list(Optional, int, int)}; a service that stores jobs asks its store.
     */
    default List<JobView> listBySchedule(String scheduleId, Optional<JobState> state, int offset, int limit) {
        return list(state, 0, Integer.MAX_VALUE).stream().filter(view -> view.spec().scheduleId().filter(scheduleId::equals).isPresent())
                .skip(Math.max(0, offset)).limit(Math.max(0, limit)).toList();
    }

    /** The movers sharing this service's job store, this one included; a service that keeps jobs to itself is one node. */
    default List<NodeView> nodes() {
        Instant now = Instant.now();
        Instant started = ProcessHandle.current().info().startInstant().orElse(now);
        return List.of(new NodeView(NodeView.localId(), NodeView.localHost(), started, now, true));
    }

    /** How many jobs are in {@code state}; a service holding many jobs counts without building their views. */
    default long count(JobState state) {
        return list(Optional.of(state), 0, Integer.MAX_VALUE).size();
    }

    /** Asks a job to stop at the next block boundary. Cancelling an ended job changes nothing. */
    JobView cancel(JobId id);

    /**
     * Stops new files from starting; files in flight finish and commit. The job reports PAUSED once
     * they have; progress keeps flowing. Pausing a paused job changes nothing.
     *
     * @throws JobEndedException when the job has ended
     */
    default JobView pause(JobId id) {
        throw new MoverException(ErrorCode.UNSUPPORTED, "this job service cannot pause jobs");
    }

    /**
     * Lets a paused job start new files again; it continues where it stopped.
     *
     * @throws JobEndedException when the job has ended
     */
    default JobView resume(JobId id) {
        throw new MoverException(ErrorCode.UNSUPPORTED, "this job service cannot resume jobs");
    }

    /**
     * Changes a job's concurrency or bandwidth cap while it runs. Shrinking never interrupts files in
     * flight: new ones start once fewer than the new limit run.
     *
     * @throws MoverException INVALID_ARGUMENT naming the field and its valid range; nothing changes then
     * @throws JobEndedException when the job has ended
     */
    default JobView update(JobId id, JobUpdate update) {
        throw new MoverException(ErrorCode.UNSUPPORTED, "this job service cannot change running jobs");
    }

    /**
     * The job's per-file results, optionally only those with {@code outcome}, in the order they were
     * recorded. What is kept depends on the service (see {@link FileResults#notKept()}).
     */
    default FileResults files(JobId id, Optional<FileOutcome> outcome, int offset, int limit) {
        throw new MoverException(ErrorCode.UNSUPPORTED, "this job service keeps no per-file results");
    }

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
