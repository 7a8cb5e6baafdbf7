package io.mover.spi;

import static java.util.Objects.requireNonNull;

/**
 * The one exception type of the SPI. The message is for a human operator: one line, saying what
 * went wrong and, where it can, what to do. It must never contain a secret (a key, a SAS token).
 *
 * <p>Unchecked, so that it crosses {@link java.util.stream.Stream} and lambda boundaries; every SPI
 * method documents that it throws it.
 */
public class MoverException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final ErrorCode code;

    public MoverException(ErrorCode code, String message) {
        this(code, message, null);
    }

    public MoverException(ErrorCode code, String message, Throwable cause) {
        super(requireNonNull(message, "message is null"), cause);
        this.code = requireNonNull(code, "code is null");
    }

    public ErrorCode code() {
        return code;
    }

    public ErrorCategory category() {
        return code.category();
    }

    public boolean isRetryable() {
        return code.category() == ErrorCategory.RETRYABLE;
    }
}
