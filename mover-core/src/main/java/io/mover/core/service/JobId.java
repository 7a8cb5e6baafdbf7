package io.mover.core.service;

import java.util.UUID;

import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

import static java.util.Objects.requireNonNull;

/** A job's id: a UUID in text. */
public record JobId(String value) {
    public JobId {
        requireNonNull(value, "value is null");
        try {
            UUID.fromString(value);
        }
        catch (IllegalArgumentException e) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "invalid job id '" + value + "': expected a UUID");
        }
    }

    public static JobId random() {
        return new JobId(UUID.randomUUID().toString());
    }

    public static JobId of(String value) {
        return new JobId(value);
    }

    /** The short key a sink tags temporaries with. */
    public String key() {
        return value.replace("-", "").substring(0, 16);
    }

    @Override
    public String toString() {
        return value;
    }
}
