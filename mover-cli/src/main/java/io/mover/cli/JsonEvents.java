package io.mover.cli;

import java.util.List;
import java.util.Optional;

import io.mover.core.engine.Bottleneck;
import io.mover.core.engine.FileFailure;
import io.mover.core.engine.JobSummary;
import io.mover.core.engine.Progress;
import io.mover.core.engine.StageStats;

/**
 * The objects {@code --output json} writes, one per line. A stable, flat shape for scripts: times in
 * seconds, sizes in bytes, every object tagged with {@code type}. Documented in docs/cli.md.
 */
final class JsonEvents {
    private JsonEvents() {}

    record ProgressEvent(String type, String state, boolean enumerating, double percent, long filesScanned, long filesDone,
            long filesSkipped, long filesFailed, long filesPending, long bytesTotal, long bytesDone, double bytesPerSecond,
            double elapsedSeconds, Optional<Double> etaSeconds, Optional<String> bottleneck, Optional<SyncEvent> sync, Optional<String> codec) {
        static ProgressEvent of(Progress p) {
            return new ProgressEvent("progress", p.state().name(), p.enumerating(), p.percent(), p.filesScanned(), p.filesDone(),
                    p.filesSkipped(), p.filesFailed(), p.filesPending(), p.bytesTotal(), p.bytesDone(), p.bytesPerSecond(),
                    seconds(p.elapsed()), p.eta().map(JsonEvents::seconds), p.bottleneck().map(b -> b.stage().name()), p.sync().map(SyncEvent::of),
                    p.codec());
        }
    }

    record DryRunEvent(String type, String action, String path, long size) {
        static DryRunEvent of(String action, String path, long size) {
            return new DryRunEvent("dryRun", action, path, size);
        }
    }

    record StageEvent(String stage, long bytes, long operations, double busySeconds, double waitingSeconds, double shareOfBusy,
            double bytesPerBusySecond) {
        static StageEvent of(StageStats s) {
            return new StageEvent(s.stage().name(), s.bytes(), s.operations(), seconds(s.busy()), seconds(s.waiting()), s.shareOfBusy(),
                    s.bytesPerBusySecond());
        }
    }

    record BottleneckEvent(String stage, double shareOfBusy, String explanation) {
        static BottleneckEvent of(Bottleneck b) {
            return new BottleneckEvent(b.stage().name(), b.shareOfBusy(), b.explanation());
        }
    }

    record FailureEvent(String path, String code, String message, int attempts) {
        static FailureEvent of(FileFailure f) {
            return new FailureEvent(f.path(), f.code().name(), f.message(), f.attempts());
        }
    }

    record SummaryEvent(String type, String state, int exitCode, String started, double elapsedSeconds, long filesScanned,
            long filesTransferred, long filesSkipped, long filesFailed, long directoriesCreated, long bytesScanned,
            long bytesTransferred, double bytesPerSecond, long retries, String codec, List<StageEvent> stages,
            Optional<BottleneckEvent> bottleneck, List<FailureEvent> failures, Optional<String> error, Optional<SyncEvent> sync,
            java.util.Map<String, Long> pluginCounters, Optional<String> concurrency) {
        static SummaryEvent of(JobSummary s) {
            return new SummaryEvent("summary", s.state().name(), ExitCode.of(s).code(), s.started().toString(), seconds(s.elapsed()),
                    s.filesScanned(), s.filesTransferred(), s.filesSkipped(), s.filesFailed(), s.directoriesCreated(), s.bytesScanned(),
                    s.bytesTransferred(), s.bytesPerSecond(), s.retries(), s.codec(), s.stages().stream().map(StageEvent::of).toList(),
                    s.bottleneck().map(BottleneckEvent::of), s.failures().stream().map(FailureEvent::of).toList(), s.error(),
                    s.sync().map(SyncEvent::of), s.pluginCounters(), Optional.of(s.concurrency()).filter(c -> !c.isEmpty()));
        }
    }

    /** A sync's counts: azcopy sync's fields (files scanned at both sides, copy transfers, deletions) and the compare. */
    record SyncEvent(boolean planning, long sourceFilesScanned, long destinationFilesScanned, long unchanged, long copyTransfers,
            long bytesToCopy, long deletionsPlanned, long deletions, long attributesUpdated, double compareSeconds,
            double filesListedPerSecond, List<String> warnings) {
        static SyncEvent of(io.mover.core.engine.SyncReport r) {
            return new SyncEvent(r.planning(), r.sourceFiles(), r.destinationFiles(), r.unchanged(), r.toCopy(), r.bytesToCopy(),
                    r.toDelete(), r.deleted(), r.attributesUpdated(), seconds(r.compare()), r.entriesPerSecond(), r.warnings());
        }
    }

    private static double seconds(java.time.Duration duration) {
        return duration.toNanos() / 1e9;
    }
}
