package io.mover.jobstore;

import java.time.Instant;

import static java.util.Objects.requireNonNull;

/**
 * A file result as recorded.
 *
 * @param result the outcome
 * @param unitSeq the unit whose commit recorded it
 * @param recordedAt when
 */
public record RecordedFile(FileResult result, long unitSeq, Instant recordedAt) {
    public RecordedFile {
        requireNonNull(result, "result is null");
        requireNonNull(recordedAt, "recordedAt is null");
    }
}
