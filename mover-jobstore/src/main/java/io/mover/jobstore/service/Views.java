package io.mover.jobstore.service;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.mover.core.engine.FileFailure;
import io.mover.core.engine.JobMeters;
import io.mover.core.engine.JobSpec;
import io.mover.core.engine.JobState;
import io.mover.core.engine.JobSummary;
import io.mover.core.engine.Progress;
import io.mover.core.engine.Stage;
import io.mover.core.engine.StageStats;
import io.mover.core.engine.SyncReport;
import io.mover.core.service.FileResult;
import io.mover.core.service.FileResults;
import io.mover.core.service.JobId;
import io.mover.core.service.JobSettings;
import io.mover.core.service.JobView;
import io.mover.jobstore.DesiredState;
import io.mover.jobstore.FileOutcome;
import io.mover.jobstore.JobTotals;
import io.mover.jobstore.NodeStageStats;
import io.mover.jobstore.RecordedFile;
import io.mover.jobstore.StoredJob;
import io.mover.spi.ErrorCode;

/** A stored job as callers see it: its view, progress and summary, built from the store's counters. */
final class Views {
    private static final int FAILURES_SHOWN = 100;

    private final Durable durable;

    Views(Durable durable) {
        this.durable = durable;
    }

    JobView view(StoredJob job) {
        return view(job, true);
    }

    /**
     * The job's view; without {@code detailed} (lists, and the metrics that count them) the per-stage figures
     * and the failed files are left out, so a list costs one query, not a few per job.
     */
    JobView view(StoredJob job, boolean detailed) {
        JobSpec spec = durable.shownSpec(job);
        JobState state = state(job);
        boolean started = job.started().isPresent();
        Optional<JobSummary> summary = state.isTerminal() ? Optional.of(summary(job, spec, detailed)) : Optional.empty();
        JobSettings settings = durable.controls(job.id())
                .map(c -> JobSettings.of(c, job.desiredState() == DesiredState.PAUSED))
                .orElseGet(() -> JobSettings.submitted(spec.options(), job.desiredState() == DesiredState.PAUSED));
        return new JobView(job.id(), spec, state, job.created(), started ? Optional.of(progress(job, detailed)) : Optional.empty(), summary,
                settings);
    }

    /**
     * A job the user paused shows PAUSED once the files in flight on this node have finished (no file
     * starts meanwhile); until then it shows RUNNING, as the in-memory service does.
     */
    JobState state(StoredJob job) {
        boolean paused = !job.state().isTerminal() && job.desiredState() == DesiredState.PAUSED
                && durable.controls(job.id()).map(c -> c.drained()).orElse(true);
        return paused ? JobState.PAUSED : job.state();
    }

    Progress progress(StoredJob job) {
        return progress(job, true);
    }

    private Progress progress(StoredJob job, boolean detailed) {
        JobTotals t = job.totals();
        Instant now = durable.clock.instant();
        Duration elapsed = elapsed(job, now);
        List<StageStats> stages = detailed ? stages(job) : List.of();
        double rate = elapsed.isZero() ? 0 : t.bytesTransferred() * 1e9 / elapsed.toNanos();
        Optional<SyncReport> sync = job.syncJson().map(SyncDriver::fromJson);
        return new Progress(now, state(job), !job.enumerationDone(), scanned(t, sync), t.filesDone(), skipped(t, sync), t.filesFailed(),
                t.bytesScanned(), t.bytesTransferred(), rate, elapsed, Optional.empty(), stages, JobMeters.bottleneck(stages), sync, job.phase(),
                job.codec());
    }

    JobSummary summary(StoredJob job, JobSpec spec) {
        return summary(job, spec, true);
    }

    private JobSummary summary(StoredJob job, JobSpec spec, boolean detailed) {
        JobTotals t = job.totals();
        List<StageStats> stages = detailed ? stages(job) : List.of();
        List<FileFailure> failures = new ArrayList<>();
        if (detailed && t.filesFailed() > 0) {
            for (RecordedFile file : durable.store.files(job.id(), Optional.of(FileOutcome.FAILED), Optional.empty(), FAILURES_SHOWN)) {
                failures.add(new FileFailure(file.result().path(), code(file.result().errorCode().orElse("INTERNAL")),
                        file.result().message().orElse(""), file.result().attempts()));
            }
        }
        Optional<SyncReport> sync = job.syncJson().map(SyncDriver::fromJson);
        return new JobSummary(job.state(), job.started().orElse(job.created()), elapsed(job, durable.clock.instant()), scanned(t, sync),
                t.filesDone(), skipped(t, sync), t.filesFailed(), 0, t.bytesTransferred(), t.bytesScanned(), t.retries(),
                job.codec().orElse(spec.options().codec()), stages, JobMeters.bottleneck(stages), failures,
                job.error().map(e -> e.message()), job.error().map(e -> code(e.code())), sync,
                detailed ? durable.store.pluginCounters(job.id()) : java.util.Map.of());
    }

    /** A sync scanned every file at the source, though only those to copy went into units. */
    private static long scanned(JobTotals t, Optional<SyncReport> sync) {
        return sync.map(SyncReport::sourceFiles).orElse(t.filesScanned());
    }

    /** A sync's unchanged files were skipped without a unit. */
    private static long skipped(JobTotals t, Optional<SyncReport> sync) {
        return t.filesSkipped() + sync.map(SyncReport::unchanged).orElse(0L);
    }

    /** A page of the job's recorded files in path order, read through the store's keyset {@code offset} files in. */
    FileResults files(JobId id, Optional<io.mover.core.service.FileOutcome> outcome, int offset, int limit) {
        Optional<FileOutcome> stored = outcome.map(o -> FileOutcome.valueOf(o.name()));
        List<FileResult> items = new ArrayList<>();
        Optional<String> after = Optional.empty();
        long skipped = 0;
        int page = 1000;
        while (items.size() < limit) {
            List<RecordedFile> files = durable.store.files(id, stored, after, page);
            for (RecordedFile file : files) {
                if (skipped++ >= offset && items.size() < limit) {
                    items.add(result(file));
                }
            }
            if (files.size() < page) {
                break;
            }
            after = Optional.of(files.getLast().result().path());
        }
        return new FileResults(items, 0);
    }

    private static FileResult result(RecordedFile file) {
        io.mover.jobstore.FileResult r = file.result();
        return new FileResult(r.path(), io.mover.core.service.FileOutcome.valueOf(r.outcome().name()), r.errorCode().map(Views::code),
                r.message(), r.attempts());
    }

    /** The job's per-stage figures summed over the nodes that ran it. */
    private List<StageStats> stages(StoredJob job) {
        Map<Stage, long[]> sums = new EnumMap<>(Stage.class);
        for (NodeStageStats s : durable.store.stageStats(job.id())) {
            long[] sum = sums.computeIfAbsent(s.stage(), key -> new long[4]);
            sum[0] += s.bytes();
            sum[1] += s.ops();
            sum[2] += s.busyNanos();
            sum[3] += s.waitNanos();
        }
        long dataPathBusy = 0;
        for (Stage stage : Stage.DATA_PATH) {
            dataPathBusy += sums.getOrDefault(stage, new long[4])[2];
        }
        List<StageStats> stats = new ArrayList<>();
        for (Stage stage : Stage.values()) {
            long[] sum = sums.getOrDefault(stage, new long[4]);
            double share = dataPathBusy == 0 || !Stage.DATA_PATH.contains(stage) ? 0 : (double) sum[2] / dataPathBusy;
            stats.add(new StageStats(stage, sum[0], sum[1], Duration.ofNanos(sum[2]), Duration.ofNanos(sum[3]), share));
        }
        return stats;
    }

    private static Duration elapsed(StoredJob job, Instant now) {
        if (job.started().isEmpty()) {
            return Duration.ZERO;
        }
        return Duration.between(job.started().get(), job.ended().orElse(now));
    }

    private static ErrorCode code(String name) {
        try {
            return ErrorCode.valueOf(name);
        }
        catch (IllegalArgumentException e) {
            return ErrorCode.INTERNAL;
        }
    }
}
