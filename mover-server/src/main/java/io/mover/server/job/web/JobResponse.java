package io.mover.server.job.web;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.mover.core.engine.Bottleneck;
import io.mover.core.engine.FileFailure;
import io.mover.core.engine.JobSpec;
import io.mover.core.engine.JobSummary;
import io.mover.core.engine.Progress;
import io.mover.core.engine.StageStats;
import io.mover.core.engine.TransferOptions;
import io.mover.core.service.JobSettings;
import io.mover.core.service.JobView;
import io.mover.spi.EndpointUri;
import io.mover.spi.MoverException;

/**
 * A job as the API shows it. Built from {@link JobView} so the API's shape does not follow the core's
 * records by accident, and so nothing secret crosses: locations print with their query hidden and
 * plugin configuration shows its keys, never its values.
 *
 * @param id the job's id
 * @param state QUEUED, RUNNING, PAUSED, SUCCEEDED, COMPLETED_WITH_ERRORS, FAILED or CANCELLED
 * @param created when it was submitted
 * @param spec what was asked
 * @param settings the live settings: concurrency and bandwidth cap now, and whether a pause was asked for
 * @param progress the latest counters, once it has started
 * @param stages per-stage throughput, from the result once it has ended, else from the latest progress
 * @param bottleneck the limiting stage, once there is data
 * @param result the totals, once it has ended
 * @param errors failed files and the job's own error, when there are any
 * @param sync a sync job's counts: files scanned at both sides, unchanged, copies, deletions, the compare's time
 * @param scheduleId the schedule that started the job, when one did ({@code /api/v1/schedules/{id}})
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record JobResponse(String id, String state, Instant created, SpecResponse spec, SettingsResponse settings, ProgressResponse progress,
        List<StageResponse> stages, BottleneckResponse bottleneck, ResultResponse result, ErrorSummary errors, SyncResponse sync,
        String scheduleId) {

    public static JobResponse of(JobView view) {
        Optional<Progress> progress = view.progress();
        Optional<JobSummary> summary = view.summary();
        List<StageStats> stages = summary.map(JobSummary::stages).or(() -> progress.map(Progress::stages)).orElse(List.of());
        Optional<Bottleneck> bottleneck = summary.flatMap(JobSummary::bottleneck).or(() -> progress.flatMap(Progress::bottleneck));
        return new JobResponse(view.id().value(), view.state().name(), view.created(), SpecResponse.of(view.spec()),
                SettingsResponse.of(view.settings()), progress.map(ProgressResponse::of).orElse(null),
                stages.stream().map(StageResponse::of).toList(),
                bottleneck.map(BottleneckResponse::of).orElse(null),
                summary.map(ResultResponse::of).orElse(null),
                ErrorSummary.of(progress, summary),
                summary.flatMap(JobSummary::sync).or(() -> progress.flatMap(Progress::sync)).map(SyncResponse::of).orElse(null),
                view.spec().scheduleId().orElse(null));
    }

    /**
     * The submitted job, secrets left out: configuration by its keys, credentials by their names.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record SpecResponse(String kind, String source, String destination, List<String> sourceConfigKeys,
            List<String> destinationConfigKeys, String sourceCredential, String destinationCredential, OptionsResponse options) {
        public static SpecResponse of(JobSpec spec) {
            return new SpecResponse(spec.kind().name().toLowerCase(Locale.ROOT), location(spec.source()), location(spec.destination()),
                    keys(spec.sourceConfig()), keys(spec.destinationConfig()), spec.sourceCredential().orElse(null),
                    spec.destinationCredential().orElse(null), OptionsResponse.of(spec.options(), spec.kind()));
        }

        private static String location(String text) {
            try {
                return EndpointUri.parse(text).toString();
            }
            catch (MoverException e) {
                return "[unparseable location]";
            }
        }

        private static List<String> keys(Map<String, String> config) {
            return List.copyOf(new TreeSet<>(config.keySet()));
        }
    }

    /**
     * The options the job was submitted with, defaults filled in; sizes in bytes; no cap leaves {@code bandwidthCapMbps} out,
     * and no concurrency given leaves {@code concurrency} out (the job then runs with 16 or what its endpoints suggest:
     * {@code settings.concurrency} and {@code settings.concurrencyOrigin} say which).
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record OptionsResponse(Integer concurrency, int blockSize, List<String> include, List<String> exclude, String overwrite,
            String symlinks, String codec, boolean dryRun, boolean verify, int retries, double retryBackoffSeconds, long bufferPool,
            Double bandwidthCapMbps, SyncOptionsResponse sync, BenchOptionsResponse bench) {
        static OptionsResponse of(TransferOptions options, io.mover.core.engine.JobKind kind) {
            return new OptionsResponse(options.concurrencySet() ? options.concurrency() : null, options.blockSize(), options.includes(), options.excludes(),
                    options.overwrite().cliName(), options.symlinks().name().toLowerCase(Locale.ROOT), options.codec(),
                    options.dryRun(), options.verify(), options.maxRetries(), seconds(options.retryBackoff()), options.bufferPoolBytes(),
                    BandwidthCap.mbps(options.bandwidthCap()),
                    kind == io.mover.core.engine.JobKind.SYNC ? SyncOptionsResponse.of(options.sync()) : null,
                    kind == io.mover.core.engine.JobKind.BENCH ? BenchOptionsResponse.of(options.bench()) : null);
        }
    }

    /** A bench job's options as submitted (docs/bench.md); sizes in bytes. */
    public record BenchOptionsResponse(String mode, long files, long size, String data, List<Integer> concurrency, boolean keep, String folder,
            long ioSize, List<Integer> queueDepths, double runtimeSeconds, List<Long> writeBlockSizes, List<Integer> streams, List<String> codecs) {
        static BenchOptionsResponse of(io.mover.core.engine.BenchOptions b) {
            return new BenchOptionsResponse(b.mode().name().toLowerCase(Locale.ROOT), b.files(), b.fileSize(), b.data(), b.concurrencies(), b.keep(),
                    b.folder(), b.ioSize(), b.queueDepths(), seconds(b.runtime()), b.writeBlockSizes(), b.streams(), b.codecs());
        }
    }

    /** A sync job's options as submitted; no size or age limit leaves its field out. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record SyncOptionsResponse(String deleteDestination, long maxDelete, String compare, boolean force, String filesFrom,
            long minSize, Long maxSize, Double minAgeSeconds, Double maxAgeSeconds, boolean catalog) {
        static SyncOptionsResponse of(io.mover.core.engine.SyncOptions o) {
            return new SyncOptionsResponse(o.deletes().cliName(), o.maxDelete(), o.compare().cliName(), o.force(), o.filesFrom().orElse(null),
                    o.minSize(), o.maxSize() < 0 ? null : o.maxSize(), o.minAge().map(JobResponse::seconds).orElse(null),
                    o.maxAge().map(JobResponse::seconds).orElse(null), o.catalog());
        }
    }

    /**
     * A sync's counts (azcopy sync's fields and more): files scanned at the source and the destination,
     * unchanged, copy transfers, deletions planned and done, the compare's duration, warnings.
     */
    public record SyncResponse(boolean planning, long sourceFilesScanned, long destinationFilesScanned, long unchanged, long copyTransfers,
            long bytesToCopy, long deletionsPlanned, long deletions, long attributesUpdated, double compareSeconds, List<String> warnings) {
        static SyncResponse of(io.mover.core.engine.SyncReport r) {
            return new SyncResponse(r.planning(), r.sourceFiles(), r.destinationFiles(), r.unchanged(), r.toCopy(), r.bytesToCopy(),
                    r.toDelete(), r.deleted(), r.attributesUpdated(), seconds(r.compare()), r.warnings());
        }

        public io.mover.core.engine.SyncReport toReport() {
            return new io.mover.core.engine.SyncReport(sourceFilesScanned, destinationFilesScanned, unchanged, copyTransfers, bytesToCopy,
                    deletionsPlanned, deletions, attributesUpdated, Duration.ofNanos(Math.round(compareSeconds * 1e9)), planning,
                    warnings == null ? List.of() : warnings);
        }
    }

    /**
     * The job's settings now, as changed by {@code PATCH} (the spec keeps what was submitted).
     *
     * @param bandwidthCapMbps megabits per second; absent when there is no cap
     * @param bandwidthCapBytesPerSecond the same in bytes per second; 0 for no cap
     * @param pauseRequested a pause was asked for; the state is PAUSED once files in flight have finished
     * @param concurrencyOrigin where {@code concurrency} came from: {@code set} (the job's options or a {@code PATCH}),
     *        {@code default} (16), or {@code chosen by PLUGIN} (what an endpoint suggested, once a run has opened it)
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record SettingsResponse(int concurrency, Double bandwidthCapMbps, long bandwidthCapBytesPerSecond, boolean pauseRequested,
            String concurrencyOrigin) {
        static SettingsResponse of(JobSettings settings) {
            return new SettingsResponse(settings.concurrency(), BandwidthCap.mbps(settings.bandwidthCapBytesPerSecond()),
                    settings.bandwidthCapBytesPerSecond(), settings.pauseRequested(), settings.concurrencyOrigin());
        }
    }

    /** The latest counters; {@code etaSeconds} once the totals are known and bytes move; {@code phase} for a bench. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ProgressResponse(Instant at, String state, boolean enumerating, long filesScanned, long filesDone, long filesSkipped,
            long filesFailed, long filesPending, long bytesTotal, long bytesDone, double percent, double bytesPerSecond,
            double elapsedSeconds, Double etaSeconds, PhaseResponse phase, String codec) {
        public static ProgressResponse of(Progress p) {
            return new ProgressResponse(p.at(), p.state().name(), p.enumerating(), p.filesScanned(), p.filesDone(), p.filesSkipped(),
                    p.filesFailed(), p.filesPending(), p.bytesTotal(), p.bytesDone(), p.percent(), p.bytesPerSecond(),
                    seconds(p.elapsed()), p.eta().map(JobResponse::seconds).orElse(null), p.phase().map(PhaseResponse::of).orElse(null),
                    p.codec().orElse(null));
        }
    }

    /** What a job that runs in steps (a bench) is doing: the step in words, the steps done before it, all of them. */
    public record PhaseResponse(String description, int step, int steps) {
        static PhaseResponse of(io.mover.core.engine.JobPhase phase) {
            return new PhaseResponse(phase.description(), phase.step(), phase.steps());
        }
    }

    /**
     * One stage's figures.
     *
     * @param bytesPerSecond bytes per second of busy time: how fast one thread gets through the stage
     * @param shareOfBusy this stage's share of the data path's busy time, 0 to 1
     */
    public record StageResponse(String stage, long bytes, long operations, double busySeconds, double waitingSeconds,
            double shareOfBusy, double bytesPerSecond) {
        static StageResponse of(StageStats s) {
            return new StageResponse(s.stage().name(), s.bytes(), s.operations(), seconds(s.busy()), seconds(s.waiting()),
                    s.shareOfBusy(), s.bytesPerBusySecond());
        }
    }

    public record BottleneckResponse(String stage, double shareOfBusy, String explanation) {
        static BottleneckResponse of(Bottleneck b) {
            return new BottleneckResponse(b.stage().name(), b.shareOfBusy(), b.explanation());
        }
    }

    /**
     * The totals of an ended job; {@code pluginCounters} what the endpoints' plugins counted (Azure requests and throttled
     * responses, NFS retransmissions) by side and name, left out when none counted anything.
     */
    public record ResultResponse(Instant started, double elapsedSeconds, long filesScanned, long filesTransferred, long filesSkipped,
            long filesFailed, long directoriesCreated, long bytesTransferred, long bytesScanned, long retries, String codec,
            double bytesPerSecond, @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, Long> pluginCounters) {
        static ResultResponse of(JobSummary s) {
            return new ResultResponse(s.started(), seconds(s.elapsed()), s.filesScanned(), s.filesTransferred(), s.filesSkipped(),
                    s.filesFailed(), s.directoriesCreated(), s.bytesTransferred(), s.bytesScanned(), s.retries(), s.codec(),
                    s.bytesPerSecond(), s.pluginCounters());
        }
    }

    /**
     * What went wrong: {@code error} is the job's own fatal error and {@code code} its {@code ErrorCode}
     * (clients such as the CLI derive their exit code from it); {@code failures} the first failed
     * files (bounded), {@code filesFailed} their exact count.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ErrorSummary(long filesFailed, String error, String code, List<FailureResponse> failures) {
        static ErrorSummary of(Optional<Progress> progress, Optional<JobSummary> summary) {
            long failed = summary.map(JobSummary::filesFailed).or(() -> progress.map(Progress::filesFailed)).orElse(0L);
            Optional<String> error = summary.flatMap(JobSummary::error);
            if (failed == 0 && error.isEmpty()) {
                return null;
            }
            List<FailureResponse> failures = summary.map(s -> s.failures().stream().map(FailureResponse::of).toList()).orElse(List.of());
            String code = error.isEmpty() ? null : summary.flatMap(JobSummary::errorCode).map(Enum::name).orElse(null);
            return new ErrorSummary(failed, error.orElse(null), code, failures);
        }
    }

    public record FailureResponse(String path, String code, String message, int attempts) {
        static FailureResponse of(FileFailure f) {
            return new FailureResponse(f.path(), f.code().name(), f.message(), f.attempts());
        }
    }

    static double seconds(Duration duration) {
        return duration.toNanos() / 1e9;
    }
}
