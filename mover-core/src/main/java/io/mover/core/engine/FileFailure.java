package io.mover.core.engine;

import io.mover.spi.ErrorCode;

import static java.util.Objects.requireNonNull;

/**
 * A file that failed, and why.
 *
 * @param path the source-relative path
 * @param code the error code
 * @param message the one-line reason
 * @param attempts how many times it was tried
 */
public record FileFailure(String path, ErrorCode code, String message, int attempts) {
    public FileFailure {
        requireNonNull(path, "path is null");
        requireNonNull(code, "code is null");
        requireNonNull(message, "message is null");
    }
}
