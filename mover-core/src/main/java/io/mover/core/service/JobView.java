package io.mover.core.service;

import java.time.Instant;
import java.util.Optional;

import io.mover.core.engine.JobSpec;
import io.mover.core.engine.JobState;
import io.mover.core.engine.JobSummary;
import io.mover.core.engine.Progress;

import static java.util.Objects.requireNonNull;

/**
 * What a caller sees of a job.
 *
 * @param id the job's id
 * @param spec what was submitted (its toString hides secrets)
 * @param state its state now
 * @param created when it was submitted
 * @param progress the latest progress, once it has started
 * @param summary the result, once it has ended
 * @param settings its live settings (concurrency, bandwidth cap, pause asked for)
 */
public record JobView(JobId id, JobSpec spec, JobState state, Instant created, Optional<Progress> progress,
        Optional<JobSummary> summary, JobSettings settings) {
    public JobView {
        requireNonNull(id, "id is null");
        requireNonNull(spec, "spec is null");
        requireNonNull(state, "state is null");
        requireNonNull(created, "created is null");
        requireNonNull(progress, "progress is null");
        requireNonNull(summary, "summary is null");
        requireNonNull(settings, "settings is null");
    }

    /** A view whose settings are those the job was submitted with (a service that cannot change them live). */
    public JobView(JobId id, JobSpec spec, JobState state, Instant created, Optional<Progress> progress, Optional<JobSummary> summary) {
        this(id, spec, state, created, progress, summary,
                JobSettings.submitted(spec.options(), false));
    }
}
