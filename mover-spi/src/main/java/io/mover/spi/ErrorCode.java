package io.mover.spi;

import static java.util.Objects.requireNonNull;

/**
 * The error codes a plugin or the engine reports. Each has one {@link ErrorCategory}.
 * Codes are stable: the REST problem type and the logs carry their names.
 */
public enum ErrorCode {
    INVALID_ARGUMENT(ErrorCategory.USER),
    INVALID_CONFIG(ErrorCategory.USER),
    INVALID_PATH(ErrorCategory.USER),
    UNKNOWN_SCHEME(ErrorCategory.USER),
    UNKNOWN_CODEC(ErrorCategory.USER),
    UNSUPPORTED(ErrorCategory.USER),
    PERMISSION_DENIED(ErrorCategory.USER),
    ALREADY_EXISTS(ErrorCategory.USER),
    NOT_A_DIRECTORY(ErrorCategory.USER),
    NOT_FOUND(ErrorCategory.NOT_FOUND),
    IO_ERROR(ErrorCategory.RETRYABLE),
    TIMEOUT(ErrorCategory.RETRYABLE),
    THROTTLED(ErrorCategory.RETRYABLE),
    CONNECTION_LOST(ErrorCategory.RETRYABLE),
    CHECKSUM_MISMATCH(ErrorCategory.RETRYABLE),
    /** The source changed while it was read (size or mtime moved); a retry reads the new version. */
    SOURCE_CHANGED(ErrorCategory.RETRYABLE),
    NO_SPACE(ErrorCategory.FATAL),
    AUTHENTICATION_FAILED(ErrorCategory.FATAL),
    CANCELLED(ErrorCategory.FATAL),
    PLUGIN_FAILED(ErrorCategory.FATAL),
    INTERNAL(ErrorCategory.FATAL);

    private final ErrorCategory category;

    ErrorCode(ErrorCategory category) {
        this.category = requireNonNull(category, "category is null");
    }

    public ErrorCategory category() {
        return category;
    }
}
