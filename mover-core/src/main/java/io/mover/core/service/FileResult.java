package io.mover.core.service;

import java.util.Optional;

import io.mover.core.engine.FileFailure;
import io.mover.spi.ErrorCode;

import static java.util.Objects.requireNonNull;

/**
 * One file's outcome.
 *
 * @param path the source-relative path
 * @param outcome how it ended
 * @param code the error code, when it failed
 * @param message the one-line reason, when it failed
 * @param attempts how many times it was tried
 */
public record FileResult(String path, FileOutcome outcome, Optional<ErrorCode> code, Optional<String> message, int attempts) {
    public FileResult {
        requireNonNull(path, "path is null");
        requireNonNull(outcome, "outcome is null");
        requireNonNull(code, "code is null");
        requireNonNull(message, "message is null");
    }

    public static FileResult failed(FileFailure failure) {
        return new FileResult(failure.path(), FileOutcome.FAILED, Optional.of(failure.code()), Optional.of(failure.message()), failure.attempts());
    }
}
