package io.mover.jobstore.service;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

import com.github.kagkarlsson.scheduler.task.ExecutionContext;

import io.mover.core.engine.CancellationToken;
import io.mover.core.engine.FileReport;
import io.mover.core.engine.JobControls;
import io.mover.core.engine.JobSpec;
import io.mover.core.engine.JobState;
import io.mover.core.engine.JobSummary;
import io.mover.core.engine.PreparedJob;
import io.mover.core.engine.Stage;
import io.mover.core.engine.StageStats;
import io.mover.core.engine.UnitRun;
import io.mover.core.service.JobId;
import io.mover.jobstore.DesiredState;
import io.mover.jobstore.FileOutcome;
import io.mover.jobstore.FileResult;
import io.mover.jobstore.JobError;
import io.mover.jobstore.StageDelta;
import io.mover.jobstore.StoredJob;
import io.mover.spi.Entry;

/**
 * One attempt at one unit ({@link UnitWorker}): runs the unit's files through the engine on another thread and,
 * from the caller's, records outcomes (a checkpoint every {@code checkpointFiles} files or {@code checkpointMillis}),
 * heartbeats the lease and follows the job's desired state. Keeps the outcomes not yet recorded and the stage
 * figures already sent. A refused checkpoint or heartbeat means a newer attempt holds the unit: this one stops.
 */
final class UnitAttempt {
    private static final System.Logger LOG = System.getLogger(UnitAttempt.class.getName());
    private static final long POLL_MILLIS = 200;
    private static final long STATE_MILLIS = 1000;
    private static final long HEARTBEAT_MILLIS = 5000;
    /** How often a running unit may say what carries its blocks (the job's progress shows it). */
    private static final long CODEC_MILLIS = 2000;

    private final Durable durable;
    private final JobFinisher finisher;
    private final int checkpointFiles;
    private final long checkpointMillis;
    private final JobId id;
    private final long seq;
    private final long epoch;
    private final ConcurrentLinkedQueue<FileReport> reports = new ConcurrentLinkedQueue<>();
    private final Map<Stage, StageStats> sent = new EnumMap<>(Stage.class);
    private UnitRun run;
    private boolean stale;
    /** What ended the engine's run: its summary, or an unexpected failure. */
    private JobSummary summary;
    private Throwable unexpected;
    /** What {@link #scanned} has recorded. */
    private long scannedFiles;
    private long scannedBytes;
    /** What {@link #codec} recorded last, and when. */
    private String codecRecorded;
    private long codecNanos = System.nanoTime();

    UnitAttempt(Durable durable, JobFinisher finisher, int checkpointFiles, long checkpointMillis, JobId id, long seq, long epoch) {
        this.durable = durable;
        this.finisher = finisher;
        this.checkpointFiles = checkpointFiles;
        this.checkpointMillis = checkpointMillis;
        this.id = id;
        this.seq = seq;
        this.epoch = epoch;
    }

    /** True when the unit was committed (or a newer attempt took it); false when the node is stopping. */
    boolean run(JobSpec spec, JobControls controls, List<Entry> todo, ExecutionContext context, boolean singleStream) {
        CancellationToken cancellation = new CancellationToken();
        AtomicBoolean stopStarting = new AtomicBoolean();
        String purpose = "unit-" + seq;
        try (PreparedJob prepared = durable.prepare(id, spec, purpose);
                ExecutorService thread = Executors.newVirtualThreadPerTaskExecutor()) {
            run = singleStream ? durable.engine.wholeJob(prepared, reports::add, cancellation, controls, stopStarting::get)
                    : durable.engine.unit(prepared, todo, reports::add, cancellation, controls, stopStarting::get);
            Future<JobSummary> done = thread.submit(run::run);
            long lastState = 0;
            long lastHeartbeat = System.nanoTime();
            long lastCheckpoint = System.nanoTime();
            while (!await(done)) {
                long now = System.nanoTime();
                if (durable.stopping || context.getSchedulerState().isShuttingDown()) {
                    stopStarting.set(true);
                    if (controls.pauseRequested()) {
                        cancellation.cancel(); // a paused unit would wait for a resume that will not come
                    }
                }
                if (millis(now - lastState) >= STATE_MILLIS) {
                    lastState = now;
                    follow(controls, cancellation);
                }
                if (reports.size() >= checkpointFiles || millis(now - lastCheckpoint) >= checkpointMillis) {
                    lastCheckpoint = now;
                    lastHeartbeat = now;
                    stale = !durable.store.checkpoint(id, seq, epoch, drain(), deltas());
                    scanned(singleStream);
                    if (millis(now - codecNanos) >= CODEC_MILLIS) {
                        codec(prepared.codec().describe());
                    }
                }
                else if (millis(now - lastHeartbeat) >= HEARTBEAT_MILLIS) {
                    lastHeartbeat = now;
                    stale = !durable.store.heartbeat(id, seq, epoch);
                }
                if (stale) {
                    LOG.log(System.Logger.Level.INFO, "unit {0} of job {1} is held by a newer attempt: this one stops", seq, id);
                    cancellation.cancel();
                }
            }
        }
        finally {
            durable.deleteScratch(id, purpose);
        }
        if (summary != null) {
            EndpointCounters.add(durable, id, summary.pluginCounters());   // before the commit that may end the job
            codec(summary.codec());
        }
        scanned(singleStream);
        if (stale) {
            return true;
        }
        if (unexpected != null) {
            // not every file of the unit was accounted for: record what was, and let db-scheduler retry the rest
            durable.store.checkpoint(id, seq, epoch, drain(), deltas());
            throw new IllegalStateException("unit " + seq + " of job " + id + " failed unexpectedly: " + unexpected, unexpected);
        }
        if (stopStarting.get() && run.cutShort()) {
            // files left unstarted; a unit whose every file started has ended, and is committed below
            durable.store.checkpoint(id, seq, epoch, drain(), deltas());
            return false;
        }
        if (summary != null && summary.state() == JobState.FAILED && summary.error().isPresent()) {
            // a fatal error (no space, authentication) stops the job, as it stops a crawled one
            durable.store.checkpoint(id, seq, epoch, drain(), deltas());
            String message = summary.error().get() + (singleStream ? "; " + UnitWorker.STREAM_ADVICE : "");
            finisher.fail(id, new JobError(summary.errorCode().map(Enum::name).orElse("INTERNAL"), message));
            return true;
        }
        commit(drain());
        return true;
    }

    /**
     * A whole-job unit crawls as it sends, so the job's totals (files and bytes found) grow with its crawl, recorded
     * as they go; a unit of a crawled job had them recorded by the driver that cut it.
     */
    private void scanned(boolean wholeJob) {
        if (!wholeJob || run == null) {
            return;
        }
        long files = run.filesScanned();
        long bytes = run.bytesScanned();
        if (files != scannedFiles || bytes != scannedBytes) {
            durable.store.addScanned(id, files - scannedFiles, bytes - scannedBytes);
            scannedFiles = files;
            scannedBytes = bytes;
        }
    }

    private boolean await(Future<JobSummary> done) {
        try {
            summary = done.get(POLL_MILLIS, TimeUnit.MILLISECONDS);
            return true;
        }
        catch (TimeoutException e) {
            return false;
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            unexpected = e;
            return true;
        }
        catch (ExecutionException e) {
            unexpected = e.getCause();
            return true;
        }
    }

    /** Pause and resume this node's controls as the user asked; cancel in-flight blocks on a cancel. */
    private void follow(JobControls controls, CancellationToken cancellation) {
        DesiredState desired = durable.store.get(id).map(StoredJob::desiredState).orElse(DesiredState.CANCELLED);
        switch (desired) {
            case CANCELLED -> cancellation.cancel();
            case PAUSED -> controls.pause();
            case RUNNING -> controls.resume();
        }
    }

    void commit(List<FileResult> results) {
        if (durable.store.commitUnit(id, seq, epoch, results, deltas())) {
            finisher.finishIfDone(id);
        }
    }

    private List<FileResult> drain() {
        List<FileResult> results = new ArrayList<>();
        for (FileReport report; (report = reports.poll()) != null; ) {
            results.add(switch (report.outcome()) {
                // a dry run's copies say so ("dry run: would copy")
                case TRANSFERRED -> new FileResult(report.path(), FileOutcome.TRANSFERRED, report.bytes(), report.attempts(), Optional.empty(),
                        report.message());
                case SKIPPED -> new FileResult(report.path(), FileOutcome.SKIPPED, 0, report.attempts(), Optional.empty(), report.message());
                case FAILED -> FileResult.failed(report.path(), report.code().map(Enum::name).orElse("INTERNAL"),
                        report.message().orElse("failed"), report.attempts());
            });
        }
        return results;
    }

    /** What each stage measured since the last record: the run's figures are cumulative. */
    private StageDelta[] deltas() {
        if (run == null) {
            return new StageDelta[0];
        }
        List<StageDelta> deltas = new ArrayList<>();
        for (StageStats now : run.stages()) {
            StageStats before = sent.get(now.stage());
            long bytes = now.bytes() - (before == null ? 0 : before.bytes());
            long ops = now.operations() - (before == null ? 0 : before.operations());
            long busy = now.busy().toNanos() - (before == null ? 0 : before.busy().toNanos());
            long wait = now.waiting().toNanos() - (before == null ? 0 : before.waiting().toNanos());
            sent.put(now.stage(), now);
            if (bytes != 0 || ops != 0 || busy != 0 || wait != 0) {
                deltas.add(new StageDelta(now.stage(), bytes, busy, wait, ops));
            }
        }
        return deltas.toArray(StageDelta[]::new);
    }

    private static long millis(long nanos) {
        return nanos / 1_000_000;
    }

    /**
     * Records what carries the unit's blocks for the job's progress and summary ({@code --codec auto}: the shares and the
     * last choice's reason), when it changed: at most every {@value #CODEC_MILLIS} ms while the unit runs, and at its end.
     */
    private void codec(String description) {
        codecNanos = System.nanoTime();
        if (!description.equals(codecRecorded)) {
            durable.store.recordCodec(id, description);
            codecRecorded = description;
        }
    }
}
