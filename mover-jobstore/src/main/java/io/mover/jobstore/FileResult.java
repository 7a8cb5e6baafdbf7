package io.mover.jobstore;

import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * One file's outcome, as a unit commits it.
 *
 * @param path the source-relative path, the file's key within the job
 * @param outcome how it ended
 * @param bytes bytes transferred (0 unless transferred)
 * @param attempts how many times it was tried (at least 1)
 * @param errorCode the error code's name when it failed
 * @param message the one-line reason when it failed or was skipped
 */
public record FileResult(String path, FileOutcome outcome, long bytes, int attempts, Optional<String> errorCode,
        Optional<String> message) {
    public FileResult {
        requireNonNull(path, "path is null");
        requireNonNull(outcome, "outcome is null");
        requireNonNull(errorCode, "errorCode is null");
        requireNonNull(message, "message is null");
        if (attempts < 1) {
            throw new IllegalArgumentException("attempts must be at least 1, got " + attempts);
        }
    }

    public static FileResult transferred(String path, long bytes, int attempts) {
        return new FileResult(path, FileOutcome.TRANSFERRED, bytes, attempts, Optional.empty(), Optional.empty());
    }

    public static FileResult skipped(String path, String reason) {
        return new FileResult(path, FileOutcome.SKIPPED, 0, 1, Optional.empty(), Optional.of(reason));
    }

    public static FileResult failed(String path, String errorCode, String message, int attempts) {
        return new FileResult(path, FileOutcome.FAILED, 0, attempts, Optional.of(errorCode), Optional.of(message));
    }
}
