package io.mover.jobstore.schedule;

import java.time.Instant;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Something a schedule did or noticed, kept in the job store (the last 200 per schedule).
 *
 * @param seq its number within the schedule, from 1
 * @param at when
 * @param kind what
 * @param jobId the job it is about, if any
 * @param message a sentence for the operator
 */
public record ScheduleEvent(long seq, Instant at, Kind kind, Optional<String> jobId, String message) {
    public enum Kind {
        CREATED, UPDATED, PAUSED, RESUMED,
        /** A firing started a job. */
        FIRED,
        /** A firing found the previous run still going and did nothing (overlap skip, or one already queued). */
        SKIPPED,
        /** A firing found the previous run still going and waits for it (overlap queue-one). */
        QUEUED,
        /** The job could not be submitted (its endpoints, a credential, a plugin): no run this time. */
        SUBMIT_FAILED,
        /** A run of the schedule ended (its state in the message). */
        RUN_ENDED,
        RPO_EXCEEDED,
        /** Back within the target after RPO_EXCEEDED. */
        RPO_MET
    }

    public ScheduleEvent {
        requireNonNull(at, "at is null");
        requireNonNull(kind, "kind is null");
        requireNonNull(jobId, "jobId is null");
        requireNonNull(message, "message is null");
    }
}
