package io.mover.core.engine;

import java.time.Clock;
import java.util.List;
import java.util.function.BooleanSupplier;

import io.mover.spi.Entry;

import static java.util.Objects.requireNonNull;

/**
 * One attempt at a unit of a durable job: the given entries (a manifest, in order) go through the same
 * per-file path as a crawled job ({@link FileCopy}), each file's outcome goes to a {@link FileReport.Listener}.
 * Directory entries are created (and their stale temporaries removed); their modification times are the
 * caller's to set once the whole job has ended. Between files the run checks {@code stopStarting}: once it
 * says so no new file starts, files in flight finish and report (a graceful stop at a file boundary), and the
 * sink is not {@linkplain io.mover.spi.Sink#finish() finished}. A unit that is the whole job ({@code wholeJob}, a
 * single stream's) has no manifest: it crawls the source as it sends, as a copy does, and sets each folder's
 * times once the folder's files have ended; {@link #filesScanned()} says how far the crawl got.
 */
public final class UnitRun {
    private final TransferRun run;

    UnitRun(PreparedJob job, Clock clock, List<Entry> entries, FileReport.Listener reports, CancellationToken cancellation,
            JobControls controls, BooleanSupplier stopStarting, boolean wholeJob) {
        requireNonNull(entries, "entries is null");
        requireNonNull(reports, "reports is null");
        requireNonNull(stopStarting, "stopStarting is null");
        this.run = new TransferRun(job, clock, JobListener.NONE, cancellation, controls, new TransferRun.Manifest(entries, reports, stopStarting, wholeJob));
    }

    /**
     * Whether {@code stopStarting} (or a stop) left some of the entries unstarted. A unit asked to stop after its
     * last file had started is not cut short: every file ended, and its sink was finished.
     */
    public boolean cutShort() {
        return run.wasCutShort();
    }

    /** Runs the entries; returns once every started file has ended. */
    public JobSummary run() {
        return run.run();
    }

    /** Files (and links) found so far and their bytes: for a whole-job unit, the job's totals as its crawl goes. */
    public long filesScanned() {
        return run.counters().filesScanned.sum();
    }

    public long bytesScanned() {
        return run.counters().bytesScanned.sum();
    }

    /** The stages' figures of this attempt so far (cumulative: the caller takes differences for its deltas). */
    public List<StageStats> stages() {
        return run.meters().stats();
    }
}
