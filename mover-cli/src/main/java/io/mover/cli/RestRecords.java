package io.mover.cli;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import io.mover.core.engine.Bottleneck;
import io.mover.core.engine.FileFailure;
import io.mover.core.engine.JobState;
import io.mover.core.engine.JobSummary;
import io.mover.core.engine.Progress;
import io.mover.core.engine.Stage;
import io.mover.core.engine.StageStats;
import io.mover.server.job.web.JobResponse;
import io.mover.server.job.web.JobResponse.BottleneckResponse;
import io.mover.server.job.web.JobResponse.ProgressResponse;
import io.mover.server.job.web.JobResponse.ResultResponse;
import io.mover.server.job.web.JobResponse.StageResponse;
import io.mover.spi.ErrorCode;

/**
 * The REST API's JSON read back into the engine's records ({@link Progress}, {@link JobSummary}...), so
 * a job followed on a server is shown by the very renderers of a standalone run.
 */
final class RestRecords {
    private RestRecords() {}

    static JobState state(String name) {
        try {
            return JobState.valueOf(name);
        }
        catch (IllegalArgumentException | NullPointerException e) {
            // a state a newer server added: treat it as still running, the stream's end decides
            return JobState.RUNNING;
        }
    }

    /** {@code job} supplies what progress events leave out: the stages and bottleneck last reported. */
    static Progress progress(ProgressResponse p, JobResponse job) {
        List<StageStats> stages = job == null ? List.of() : stages(job.stages());
        Optional<Bottleneck> bottleneck = job == null ? Optional.empty() : bottleneck(job.bottleneck());
        return new Progress(p.at() == null ? Instant.now() : p.at(), state(p.state()), p.enumerating(), p.filesScanned(), p.filesDone(),
                p.filesSkipped(), p.filesFailed(), p.bytesTotal(), p.bytesDone(), p.bytesPerSecond(), seconds(p.elapsedSeconds()),
                Optional.ofNullable(p.etaSeconds()).map(RestRecords::seconds), stages, bottleneck,
                Optional.ofNullable(job).map(JobResponse::sync).map(JobResponse.SyncResponse::toReport), Optional.empty(),
                Optional.ofNullable(p.codec()));
    }

    /** The summary of an ended job; a job that ended before it started has zeros for its totals. */
    static JobSummary summary(JobResponse job) {
        ResultResponse r = job.result();
        Optional<String> error = Optional.ofNullable(job.errors()).map(JobResponse.ErrorSummary::error);
        Optional<ErrorCode> code = Optional.ofNullable(job.errors()).flatMap(e -> ServerErrors.code(e.code()));
        List<FileFailure> failures = job.errors() == null || job.errors().failures() == null ? List.of()
                : job.errors().failures().stream()
                        .map(f -> new FileFailure(f.path(), ServerErrors.code(f.code()).orElse(ErrorCode.INTERNAL), f.message(), f.attempts()))
                        .toList();
        if (r == null) {
            long failed = job.errors() == null ? 0 : job.errors().filesFailed();
            return new JobSummary(state(job.state()), job.created(), Duration.ZERO, 0, 0, 0, failed, 0, 0, 0, 0, "none",
                    stages(job.stages()), bottleneck(job.bottleneck()), failures, error, code);
        }
        return new JobSummary(state(job.state()), r.started(), seconds(r.elapsedSeconds()), r.filesScanned(), r.filesTransferred(),
                r.filesSkipped(), r.filesFailed(), r.directoriesCreated(), r.bytesTransferred(), r.bytesScanned(), r.retries(),
                Objects.requireNonNullElse(r.codec(), "none"), stages(job.stages()), bottleneck(job.bottleneck()), failures, error, code,
                Optional.ofNullable(job.sync()).map(JobResponse.SyncResponse::toReport), Objects.requireNonNullElse(r.pluginCounters(), Map.of()),
                concurrency(job.settings()));
    }

    /** "64 (chosen by azure-files)" from the job's live settings; empty from a server that does not say. */
    static String concurrency(JobResponse.SettingsResponse settings) {
        return settings == null || settings.concurrencyOrigin() == null ? "" : settings.concurrency() + " (" + settings.concurrencyOrigin() + ")";
    }

    static List<StageStats> stages(List<StageResponse> stages) {
        if (stages == null) {
            return List.of();
        }
        return stages.stream()
                .filter(s -> stage(s.stage()).isPresent())
                .map(s -> new StageStats(stage(s.stage()).orElseThrow(), s.bytes(), s.operations(), seconds(s.busySeconds()),
                        seconds(s.waitingSeconds()), s.shareOfBusy()))
                .toList();
    }

    static Optional<Bottleneck> bottleneck(BottleneckResponse b) {
        if (b == null) {
            return Optional.empty();
        }
        return stage(b.stage()).map(stage -> new Bottleneck(stage, b.shareOfBusy(), Objects.requireNonNullElse(b.explanation(), stage.name())));
    }

    private static Optional<Stage> stage(String name) {
        try {
            return Optional.of(Stage.valueOf(name));
        }
        catch (IllegalArgumentException | NullPointerException e) {
            // a stage a newer server measures: left out rather than failing the whole report
            return Optional.empty();
        }
    }

    static Duration seconds(double seconds) {
        return Duration.ofNanos(Math.round(seconds * 1e9));
    }
}
