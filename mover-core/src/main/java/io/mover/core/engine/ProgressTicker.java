package io.mover.core.engine;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import io.mover.spi.MoverException;

import static java.util.Objects.requireNonNull;

/**
 * Emits a job's {@link Progress} every interval on its own thread, and builds the final
 * {@link JobSummary}. Throughput is measured over the last interval, the ETA from it.
 */
final class ProgressTicker {
    private static final System.Logger LOG = System.getLogger(ProgressTicker.class.getName());

    private final TransferRun run;
    private final Clock clock;
    private final JobListener listener;
    private final Duration interval;
    private final long startNanos = System.nanoTime();
    private final Instant started;
    private final PluginCounterSampler plugins;
    private volatile boolean enumerating = true;
    private Thread thread;
    private long lastBytes;
    private long lastNanos = startNanos;

    ProgressTicker(TransferRun run, Clock clock, JobListener listener, Duration interval) {
        this.run = requireNonNull(run, "run is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.listener = requireNonNull(listener, "listener is null");
        this.interval = requireNonNull(interval, "interval is null");
        this.started = clock.instant();
        this.plugins = new PluginCounterSampler(run.job().source(), run.job().sink());
    }

    void start() {
        thread = Thread.ofVirtual().name("mover-progress").start(() -> {
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    Thread.sleep(interval);
                    emit(snapshot(run.liveState()));
                }
            }
            catch (InterruptedException e) {
                // stopped: the job has ended
            }
        });
    }

    void enumerationDone() {
        enumerating = false;
    }

    void stop() {
        enumerating = false;
        thread.interrupt();
        try {
            thread.join(Duration.ofSeconds(5));
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The final progress (with the terminal state) and the summary. */
    JobSummary finish() {
        JobState state = terminalState();
        Progress last = snapshot(state);
        emit(last);
        JobCounters c = run.counters();
        List<StageStats> stages = run.meters().stats();
        return new JobSummary(state, started, Duration.ofNanos(System.nanoTime() - startNanos), c.filesScanned.sum(), c.filesDone.sum(),
                c.filesSkipped.sum(), c.filesFailed.sum(), c.directoriesCreated.sum(), c.bytesTransferred.sum(), c.bytesScanned.sum(),
                c.retries.sum(), run.job().codec().describe(), stages, JobMeters.bottleneck(stages), c.failures(),
                run.fatal().map(Throwable::getMessage), run.fatal().map(MoverException::code), run.syncReport(), plugins.sample(),
                run.controls().concurrencyText());
    }

    private JobState terminalState() {
        if (run.fatal().isPresent()) {
            return JobState.FAILED;
        }
        if (run.cancelled()) {
            return JobState.CANCELLED;
        }
        return run.counters().filesFailed.sum() > 0 ? JobState.COMPLETED_WITH_ERRORS : JobState.SUCCEEDED;
    }

    private synchronized Progress snapshot(JobState state) {
        plugins.sample();   // the process-wide totals (metrics) follow the job as it runs
        JobCounters c = run.counters();
        long now = System.nanoTime();
        long bytesDone = c.bytesDone();
        double rate = now > lastNanos ? (bytesDone - lastBytes) * 1e9 / (now - lastNanos) : 0;
        lastBytes = bytesDone;
        lastNanos = now;
        long total = c.bytesScanned.sum();
        Optional<Duration> eta = !enumerating && rate > 0 && state == JobState.RUNNING
                ? Optional.of(Duration.ofMillis((long) (Math.max(0, total - bytesDone) * 1000 / rate)))
                : Optional.empty();
        List<StageStats> stages = run.meters().stats();
        return new Progress(clock.instant(), state, enumerating, c.filesScanned.sum(), c.filesDone.sum(), c.filesSkipped.sum(),
                c.filesFailed.sum(), total, bytesDone, Math.max(0, rate), Duration.ofNanos(now - startNanos), eta, stages,
                JobMeters.bottleneck(stages), run.syncReport(), Optional.empty(), Optional.of(run.job().codec().describe()));
    }

    private void emit(Progress progress) {
        try {
            listener.onProgress(progress);
        }
        catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "a progress listener failed: " + e);
        }
    }
}
