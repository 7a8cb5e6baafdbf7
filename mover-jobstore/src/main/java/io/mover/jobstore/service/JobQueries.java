package io.mover.jobstore.service;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import io.mover.core.engine.JobKind;
import io.mover.core.engine.JobListener;
import io.mover.core.engine.JobState;
import io.mover.core.engine.JobSummary;
import io.mover.core.service.FileOutcome;
import io.mover.core.service.FileResults;
import io.mover.core.service.JobId;
import io.mover.core.service.JobView;
import io.mover.core.service.NodeView;
import io.mover.jobstore.StoredJob;

import static java.util.Objects.requireNonNull;

/**
 * The read side of {@link DurableJobService}: views (through the node's {@link ViewCache} for single jobs), lists, file
 * pages, reports, nodes, and waiting for or following a job. Changes nothing in the store.
 */
final class JobQueries {
    private static final Duration AWAIT_POLL = Duration.ofMillis(200);

    private final Durable durable;
    private final ProgressHub progress;

    JobQueries(Durable durable, ProgressHub progress) {
        this.durable = requireNonNull(durable, "durable is null");
        this.progress = requireNonNull(progress, "progress is null");
    }

    Optional<JobView> get(JobId id) {
        return durable.viewCache.get(id);
    }

    Optional<JobView> peek(JobId id) {
        return durable.viewCache.peek(id);
    }

    List<JobView> list(Optional<JobState> state, Optional<JobKind> kind, int offset, int limit) {
        // PAUSED is shown, not stored: the store's state is QUEUED or RUNNING with PAUSED desired
        if (state.isPresent() && state.get() == JobState.PAUSED) {
            return durable.store.list(Optional.empty(), kind, 0, Integer.MAX_VALUE).stream().filter(job -> durable.views.state(job) == JobState.PAUSED)
                    .map(job -> durable.views.view(job, false)).skip(Math.max(0, offset)).limit(Math.max(0, limit)).toList();
        }
        return durable.store.list(state, kind, offset, limit).stream().map(job -> durable.views.view(job, false)).toList();
    }

    /** A schedule's jobs in a state the store holds (not PAUSED, which is shown, not stored). */
    List<JobView> listStoredBySchedule(String scheduleId, Optional<JobState> state, int offset, int limit) {
        requireNonNull(scheduleId, "scheduleId is null");
        return durable.store.listBySchedule(scheduleId, state, offset, limit).stream().map(job -> durable.views.view(job, false)).toList();
    }

    /** A bench's report (JSON) once it succeeded. */
    Optional<String> report(JobId id) {
        durable.find(id);
        return durable.store.report(id);
    }

    List<NodeView> nodes() {
        return durable.store.nodes().stream()
                .map(node -> new NodeView(node.id(), node.host(), node.started(), node.heartbeat(), node.id().equals(durable.nodeId))).toList();
    }

    long count(JobState state) {
        return durable.store.count(state);
    }

    /** Every file's outcome is kept; pages are in path order (the store's keyset), {@code offset} skips through them. */
    FileResults files(JobId id, Optional<FileOutcome> outcome, int offset, int limit) {
        durable.find(id);
        return durable.views.files(id, outcome, offset, limit);
    }

    AutoCloseable subscribe(JobId id, JobListener listener) {
        durable.find(id);
        return progress.subscribe(id, listener);
    }

    Optional<JobSummary> await(JobId id, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            StoredJob job = durable.find(id);
            if (job.state().isTerminal()) {
                return Optional.of(durable.views.summary(job, durable.shownSpec(job)));
            }
            if (System.nanoTime() >= deadline) {
                return Optional.empty();
            }
            Thread.sleep(Math.min(AWAIT_POLL.toMillis(), Math.max(1, (deadline - System.nanoTime()) / 1_000_000)));
        }
    }
}
