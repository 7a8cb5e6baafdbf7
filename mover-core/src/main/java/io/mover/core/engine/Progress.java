package io.mover.core.engine;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A snapshot of a running job, emitted every progress interval and once at the end.
 *
 * @param at when it was taken
 * @param state the job's state
 * @param enumerating true while the source is still being listed (totals are still growing)
 * @param filesScanned files found in the source so far (after filters)
 * @param filesDone files transferred and committed
 * @param filesSkipped files not transferred (exist at the destination, symlinks skipped, dry run)
 * @param filesFailed files that failed after their retries
 * @param bytesTotal bytes of the files scanned so far
 * @param bytesDone bytes committed (and bytes of skipped files, so percent reaches 100)
 * @param bytesPerSecond throughput over the last interval
 * @param elapsed since the job started
 * @param eta the estimated time left, once the totals are known and something moves
 * @param stages per-stage figures so far
 * @param bottleneck the limiting stage so far, once there is data
 * @param sync a sync's counts so far (both sides' scanning counters while it plans); empty for other kinds
 * @param phase what a job that runs in steps (a bench) is doing; empty for other kinds
 * @param codec what carries the blocks, and why (the summary's codec so far: with {@code --codec auto}, each codec's share
 *        of the blocks and the last choice's reason); empty where it is not known yet
 */
public record Progress(Instant at, JobState state, boolean enumerating, long filesScanned, long filesDone, long filesSkipped,
        long filesFailed, long bytesTotal, long bytesDone, double bytesPerSecond, Duration elapsed, Optional<Duration> eta,
        List<StageStats> stages, Optional<Bottleneck> bottleneck, Optional<SyncReport> sync, Optional<JobPhase> phase, Optional<String> codec) {
    public Progress {
        requireNonNull(at, "at is null");
        requireNonNull(state, "state is null");
        requireNonNull(elapsed, "elapsed is null");
        requireNonNull(eta, "eta is null");
        stages = List.copyOf(requireNonNull(stages, "stages is null"));
        requireNonNull(bottleneck, "bottleneck is null");
        requireNonNull(sync, "sync is null");
        requireNonNull(phase, "phase is null");
        requireNonNull(codec, "codec is null");
    }

    /** The progress of a job whose codec is not known. */
    public Progress(Instant at, JobState state, boolean enumerating, long filesScanned, long filesDone, long filesSkipped,
            long filesFailed, long bytesTotal, long bytesDone, double bytesPerSecond, Duration elapsed, Optional<Duration> eta,
            List<StageStats> stages, Optional<Bottleneck> bottleneck, Optional<SyncReport> sync, Optional<JobPhase> phase) {
        this(at, state, enumerating, filesScanned, filesDone, filesSkipped, filesFailed, bytesTotal, bytesDone, bytesPerSecond, elapsed,
                eta, stages, bottleneck, sync, phase, Optional.empty());
    }

    /** The progress of a job that does not run in steps. */
    public Progress(Instant at, JobState state, boolean enumerating, long filesScanned, long filesDone, long filesSkipped,
            long filesFailed, long bytesTotal, long bytesDone, double bytesPerSecond, Duration elapsed, Optional<Duration> eta,
            List<StageStats> stages, Optional<Bottleneck> bottleneck, Optional<SyncReport> sync) {
        this(at, state, enumerating, filesScanned, filesDone, filesSkipped, filesFailed, bytesTotal, bytesDone, bytesPerSecond, elapsed,
                eta, stages, bottleneck, sync, Optional.empty());
    }

    /** The progress of a job that is not a sync. */
    public Progress(Instant at, JobState state, boolean enumerating, long filesScanned, long filesDone, long filesSkipped,
            long filesFailed, long bytesTotal, long bytesDone, double bytesPerSecond, Duration elapsed, Optional<Duration> eta,
            List<StageStats> stages, Optional<Bottleneck> bottleneck) {
        this(at, state, enumerating, filesScanned, filesDone, filesSkipped, filesFailed, bytesTotal, bytesDone, bytesPerSecond, elapsed,
                eta, stages, bottleneck, Optional.empty());
    }

    public long filesPending() {
        return Math.max(0, filesScanned - filesDone - filesSkipped - filesFailed);
    }

    /** 0 to 100 by bytes; by files when there are no bytes; by the phase's steps when it counts neither (a bench). */
    public double percent() {
        if (phase.isPresent() && bytesTotal == 0 && filesScanned == 0) {
            return phase.get().percent();
        }
        if (bytesTotal > 0) {
            return Math.min(100.0, bytesDone * 100.0 / bytesTotal);
        }
        long finished = filesDone + filesSkipped + filesFailed;
        return filesScanned == 0 ? (enumerating ? 0 : 100) : finished * 100.0 / filesScanned;
    }
}
