package io.mover.core.engine;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.mover.spi.ErrorCode;

import static java.util.Objects.requireNonNull;

/**
 * The result of a finished job.
 *
 * @param state how it ended
 * @param started when it started
 * @param elapsed how long it took
 * @param filesScanned files found in the source (after filters)
 * @param filesTransferred files committed at the destination
 * @param filesSkipped files not transferred (see {@link Progress#filesSkipped()})
 * @param filesFailed files that failed
 * @param directoriesCreated directories made at the destination
 * @param bytesTransferred bytes committed
 * @param bytesScanned bytes of all scanned files
 * @param retries retries across all files
 * @param codec the codec used, and why when it was chosen
 * @param stages per-stage figures
 * @param bottleneck the limiting stage, when anything was moved
 * @param failures the first failures (bounded; the counts are exact)
 * @param error the job's fatal error, when it failed
 * @param errorCode the code of that error, which decides the CLI's exit code and the REST problem type
 * @param sync what a sync job compared and deleted; empty for other kinds
 * @param pluginCounters what the endpoints' plugins counted ({@link io.mover.spi.PluginCounters}: throttled
 *        requests, retransmissions), by side and name ({@code destination.azure-files.throttled-503}), sorted;
 *        empty when no plugin counts anything
 * @param concurrency the files in flight the job ran with and where that came from ("64 (chosen by azure-files)",
 *        "16 (default)", "8 (set)"); empty when not known (a summary read back from a store that keeps none)
 */
public record JobSummary(JobState state, Instant started, Duration elapsed, long filesScanned, long filesTransferred,
        long filesSkipped, long filesFailed, long directoriesCreated, long bytesTransferred, long bytesScanned, long retries,
        String codec, List<StageStats> stages, Optional<Bottleneck> bottleneck, List<FileFailure> failures,
        Optional<String> error, Optional<ErrorCode> errorCode, Optional<SyncReport> sync, Map<String, Long> pluginCounters,
        String concurrency) {
    public JobSummary {
        requireNonNull(concurrency, "concurrency is null");
        requireNonNull(state, "state is null");
        requireNonNull(started, "started is null");
        requireNonNull(elapsed, "elapsed is null");
        requireNonNull(codec, "codec is null");
        stages = List.copyOf(requireNonNull(stages, "stages is null"));
        requireNonNull(bottleneck, "bottleneck is null");
        failures = List.copyOf(requireNonNull(failures, "failures is null"));
        requireNonNull(error, "error is null");
        requireNonNull(errorCode, "errorCode is null");
        requireNonNull(sync, "sync is null");
        pluginCounters = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(requireNonNull(pluginCounters, "pluginCounters is null")));
    }

    /** A summary that does not say how its concurrency was chosen. */
    public JobSummary(JobState state, Instant started, Duration elapsed, long filesScanned, long filesTransferred,
            long filesSkipped, long filesFailed, long directoriesCreated, long bytesTransferred, long bytesScanned, long retries,
            String codec, List<StageStats> stages, Optional<Bottleneck> bottleneck, List<FileFailure> failures,
            Optional<String> error, Optional<ErrorCode> errorCode, Optional<SyncReport> sync, Map<String, Long> pluginCounters) {
        this(state, started, elapsed, filesScanned, filesTransferred, filesSkipped, filesFailed, directoriesCreated, bytesTransferred,
                bytesScanned, retries, codec, stages, bottleneck, failures, error, errorCode, sync, pluginCounters, "");
    }

    /** A summary with no plugin counters (a job read back from a store that keeps none). */
    public JobSummary(JobState state, Instant started, Duration elapsed, long filesScanned, long filesTransferred,
            long filesSkipped, long filesFailed, long directoriesCreated, long bytesTransferred, long bytesScanned, long retries,
            String codec, List<StageStats> stages, Optional<Bottleneck> bottleneck, List<FileFailure> failures,
            Optional<String> error, Optional<ErrorCode> errorCode, Optional<SyncReport> sync) {
        this(state, started, elapsed, filesScanned, filesTransferred, filesSkipped, filesFailed, directoriesCreated, bytesTransferred,
                bytesScanned, retries, codec, stages, bottleneck, failures, error, errorCode, sync, Map.of());
    }

    /** The summary of a job that is not a sync. */
    public JobSummary(JobState state, Instant started, Duration elapsed, long filesScanned, long filesTransferred,
            long filesSkipped, long filesFailed, long directoriesCreated, long bytesTransferred, long bytesScanned, long retries,
            String codec, List<StageStats> stages, Optional<Bottleneck> bottleneck, List<FileFailure> failures,
            Optional<String> error, Optional<ErrorCode> errorCode) {
        this(state, started, elapsed, filesScanned, filesTransferred, filesSkipped, filesFailed, directoriesCreated, bytesTransferred,
                bytesScanned, retries, codec, stages, bottleneck, failures, error, errorCode, Optional.empty(), Map.of());
    }

    /** Bytes transferred per second of elapsed time. */
    public double bytesPerSecond() {
        long nanos = elapsed.toNanos();
        return nanos == 0 ? 0 : bytesTransferred * 1e9 / nanos;
    }
}
