package io.mover.jobstore;

import static java.util.Objects.requireNonNull;

/**
 * Why a job failed.
 *
 * @param code the error code's name (an {@link io.mover.spi.ErrorCode} name)
 * @param message the one-line reason, never a secret
 */
public record JobError(String code, String message) {
    public JobError {
        requireNonNull(code, "code is null");
        requireNonNull(message, "message is null");
    }
}
