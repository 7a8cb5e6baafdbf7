package io.mover.jobstore;

import java.util.Optional;

import io.mover.core.engine.JobKind;
import io.mover.core.service.JobId;

import static java.util.Objects.requireNonNull;

/**
 * A job to create.
 *
 * @param id its id
 * @param kind what it does
 * @param specJson the job spec as JSON, without secrets (the caller strips them: the store keeps what it is given)
 * @param scheduleId the schedule that started it, if one did
 */
public record NewJob(JobId id, JobKind kind, String specJson, Optional<String> scheduleId) {
    public NewJob {
        requireNonNull(id, "id is null");
        requireNonNull(kind, "kind is null");
        requireNonNull(specJson, "specJson is null");
        requireNonNull(scheduleId, "scheduleId is null");
    }

    /** A job no schedule started. */
    public NewJob(JobId id, JobKind kind, String specJson) {
        this(id, kind, specJson, Optional.empty());
    }
}
