package io.mover.core.service;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import io.mover.core.engine.CancellationToken;
import io.mover.core.engine.FileFailure;
import io.mover.core.engine.JobControls;
import io.mover.core.engine.JobListener;
import io.mover.core.engine.JobSpec;
import io.mover.core.engine.JobState;
import io.mover.core.engine.JobSummary;
import io.mover.core.engine.Progress;

import static java.util.Objects.requireNonNull;

/** A job held by {@link EmbeddedJobService}: its state, latest progress, listeners and result. */
final class JobRecord implements JobListener {
    private final JobId id;
    private final JobSpec spec;
    private final Instant created;
    private final CancellationToken cancellation = new CancellationToken();
    private final JobControls controls;
    /** The first failed files, bounded so a job failing millions of files cannot exhaust memory. */
    private final List<FileFailure> failures = new ArrayList<>();
    private long failuresNotKept;
    private final CompletableFuture<JobSummary> result = new CompletableFuture<>();
    private final List<JobListener> listeners = new CopyOnWriteArrayList<>();
    private volatile JobState state = JobState.QUEUED;
    private volatile Progress progress;

    JobRecord(JobId id, JobSpec spec, Instant created) {
        this.id = requireNonNull(id, "id is null");
        this.spec = requireNonNull(spec, "spec is null");
        this.created = requireNonNull(created, "created is null");
        this.controls = JobControls.of(spec.options());
    }

    JobId id() {
        return id;
    }

    JobState state() {
        return state;
    }

    CancellationToken cancellation() {
        return cancellation;
    }

    JobControls controls() {
        return controls;
    }

    CompletableFuture<JobSummary> result() {
        return result;
    }

    synchronized void started() {
        state = JobState.RUNNING;
    }

    @Override
    public void onProgress(Progress latest) {
        JobListener[] current;
        synchronized (this) {
            progress = latest;
            if (latest.state().isTerminal()) {
                // delivered by finished(), together with the result, so no subscriber misses the end
                return;
            }
            current = listeners.toArray(JobListener[]::new);
        }
        for (JobListener listener : current) {
            listener.onProgress(latest);
        }
    }

    @Override
    public void onDryRun(String action, String path, long size) {
        for (JobListener listener : listeners) {
            listener.onDryRun(action, path, size);
        }
    }

    /** The first subscriber that says yes confirms (the CLI's terminal); nobody subscribed deletes nothing. */
    @Override
    public boolean confirmDeletes(long files) {
        for (JobListener listener : listeners) {
            if (listener.confirmDeletes(files)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void onFileFailed(FileFailure failure) {
        synchronized (failures) {
            if (failures.size() < EmbeddedJobService.MAX_FILE_RESULTS_KEPT) {
                failures.add(failure);
            }
            else {
                failuresNotKept++;
            }
        }
    }

    /** Failed files (the only outcome kept here) from {@code offset}, at most {@code limit}. */
    FileResults files(Optional<FileOutcome> outcome, int offset, int limit) {
        Progress last = progress;
        long transferred = last == null ? 0 : last.filesDone();
        long skipped = last == null ? 0 : last.filesSkipped();
        synchronized (failures) {
            boolean wantsFailures = outcome.isEmpty() || outcome.get() == FileOutcome.FAILED;
            List<FileResult> page = !wantsFailures ? List.of() : failures.stream()
                    .skip(Math.max(0, offset)).limit(Math.max(0, limit)).map(FileResult::failed).toList();
            long notKept = outcome.isEmpty() ? failuresNotKept + transferred + skipped
                    : switch (outcome.get()) {
                        case FAILED -> failuresNotKept;
                        case TRANSFERRED -> transferred;
                        case SKIPPED -> skipped;
                        case DELETED -> last == null ? 0 : last.sync().map(io.mover.core.engine.SyncReport::deleted).orElse(0L);
                    };
            return new FileResults(page, notKept);
        }
    }

    /** Records the end and gives every listener the terminal progress. */
    void finished(JobSummary summary) {
        JobListener[] current;
        Progress last;
        synchronized (this) {
            state = summary.state();
            last = progress;
            current = listeners.toArray(JobListener[]::new);
            listeners.clear();
            result.complete(summary);
        }
        if (last != null) {
            for (JobListener listener : current) {
                listener.onProgress(last);
            }
        }
    }

    /** Listens from now on; a job that has ended gets its last progress at once. */
    AutoCloseable subscribe(JobListener listener) {
        Progress last;
        synchronized (this) {
            if (!state.isTerminal()) {
                listeners.add(listener);
                return () -> listeners.remove(listener);
            }
            last = progress;
        }
        if (last != null) {
            listener.onProgress(last);
        }
        return () -> {};
    }

    /** The state now: a running job whose pause has drained its work in flight is PAUSED. */
    JobState liveState() {
        JobState now = state;
        return now == JobState.RUNNING && controls.drained() ? JobState.PAUSED : now;
    }

    synchronized JobView view() {
        // an ended job has nothing left to pause: a pause asked for before the end no longer applies
        JobSettings settings = JobSettings.of(controls, controls.pauseRequested() && !state.isTerminal());
        return new JobView(id, spec, liveState(), created, Optional.ofNullable(progress), Optional.ofNullable(result.getNow(null)), settings);
    }
}
