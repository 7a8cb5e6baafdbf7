package io.mover.jobstore;

import io.mover.core.engine.JobKind;
import io.mover.core.service.JobId;

import static java.util.Objects.requireNonNull;

/**
 * A job to create.
 *
 * @param id its id
 * @param kind what it does
 * @param specJson the job spec as JSON, without secrets (the caller strips them: the store keeps what it is given)
 */
public record NewJob(JobId id, JobKind kind, String specJson) {
    public NewJob {
        requireNonNull(id, "id is null");
        requireNonNull(kind, "kind is null");
        requireNonNull(specJson, "specJson is null");
    }
}
