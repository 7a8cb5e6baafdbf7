package io.mover.jobstore.schedule;

import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

import static java.util.Objects.requireNonNull;

/** A schedule the service refuses, naming the field at fault ({@code cron}, {@code template.source}...). */
public final class InvalidScheduleException extends MoverException {
    private static final long serialVersionUID = 1L;

    private final String field;
    private final String reason;

    public InvalidScheduleException(String field, String reason) {
        super(ErrorCode.INVALID_ARGUMENT, "invalid schedule: " + field + ": " + reason);
        this.field = requireNonNull(field, "field is null");
        this.reason = requireNonNull(reason, "reason is null");
    }

    public String field() {
        return field;
    }

    public String reason() {
        return reason;
    }
}
