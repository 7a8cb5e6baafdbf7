package io.mover.core.engine;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import io.mover.spi.Entry;
import io.mover.spi.ErrorCategory;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.RelativePath;

import static java.util.Objects.requireNonNull;

/**
 * Where a run's plans and files report back: each entry scanned, each file's outcome (counted, handed to a unit's
 * recorder, a failure to the listener), and the job's fatal error, the first that stops it. Thread-safe: files end
 * on their own threads.
 */
final class FileOutcomes {
    private static final System.Logger LOG = System.getLogger(FileOutcomes.class.getName());

    private final JobCounters counters;
    private final JobListener listener;
    /** A unit's recorder of outcomes; absent when the run is not a durable job's unit. */
    private final Optional<FileReport.Listener> reports;
    /** Wakes the plan's thread where it waits for a permit, so that a fatal error stops it at once. */
    private final Runnable wake;
    private final AtomicReference<MoverException> fatal = new AtomicReference<>();

    FileOutcomes(JobCounters counters, JobListener listener, Optional<FileReport.Listener> reports, Runnable wake) {
        this.counters = requireNonNull(counters, "counters is null");
        this.listener = requireNonNull(listener, "listener is null");
        this.reports = requireNonNull(reports, "reports is null");
        this.wake = requireNonNull(wake, "wake is null");
    }

    void scanned(Entry entry) {
        counters.filesScanned.increment();
        counters.bytesScanned.add(entry.size());
    }

    void fileCommitted(Entry entry, int attempts) {
        counters.filesDone.increment();
        counters.bytesTransferred.add(entry.size());
        report(entry.path(), FileReport.Outcome.TRANSFERRED, entry.size(), attempts, null, null);
    }

    /** A symbolic link made at the destination: a file done, of no bytes. */
    void linkCreated(Entry entry) {
        counters.filesDone.increment();
        report(entry.path(), FileReport.Outcome.TRANSFERRED, 0, 1, null, null);
    }

    /** A sync found the file equal at the destination: it counts as skipped. */
    void unchanged(Entry entry) {
        counters.filesSkipped.increment();
        counters.bytesSkipped.add(entry.size());
    }

    void fileSkipped(Entry entry) {
        counters.filesSkipped.increment();
        counters.bytesSkipped.add(entry.size());
        report(entry.path(), FileReport.Outcome.SKIPPED, 0, 1, null, "already at the destination");
    }

    /** An entry left alone on purpose (a symbolic link not preserved), with the reason. */
    void entrySkipped(Entry entry, String reason) {
        counters.filesSkipped.increment();
        report(entry.path(), FileReport.Outcome.SKIPPED, 0, 1, null, reason);
    }

    void plannedCopy(Entry entry, RelativePath target) {
        counters.filesDone.increment();
        counters.bytesTransferred.add(entry.size());
        counters.bytesMoved.add(entry.size());
        listener.onDryRun("copy", target.toString(), entry.size());
        report(entry.path(), FileReport.Outcome.TRANSFERRED, entry.size(), 1, null, "dry run: would copy");
    }

    void fileFailed(RelativePath path, MoverException error, int attempts) {
        FileFailure failure = new FileFailure(path.toString(), error.code(), error.getMessage(), attempts);
        counters.failed(failure);
        report(path, FileReport.Outcome.FAILED, 0, attempts, error.code(), error.getMessage());
        try {
            listener.onFileFailed(failure);
        }
        catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "a job listener failed: " + e);
        }
        if (error.category() == ErrorCategory.FATAL && fatal.compareAndSet(null, error)) {
            LOG.log(System.Logger.Level.INFO, "stopping the job: {0}", error.getMessage());
            wake.run();
        }
    }

    void entryFailed(RelativePath path, MoverException error) {
        fileFailed(path, error, 1);
    }

    /** The job fails with {@code error} unless it already failed: the first fatal error is the job's. */
    void jobFailed(MoverException error) {
        fatal.compareAndSet(null, error);
    }

    Optional<MoverException> fatal() {
        return Optional.ofNullable(fatal.get());
    }

    boolean failed() {
        return fatal.get() != null;
    }

    private void report(RelativePath path, FileReport.Outcome outcome, long bytes, int attempts, ErrorCode code, String message) {
        reports.ifPresent(recorder -> recorder.onFile(
                new FileReport(path.toString(), outcome, bytes, attempts, Optional.ofNullable(code), Optional.ofNullable(message))));
    }
}
