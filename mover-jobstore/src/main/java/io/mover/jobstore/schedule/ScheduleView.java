package io.mover.jobstore.schedule;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import io.mover.core.engine.JobSpec;
import io.mover.core.engine.JobState;

import static java.util.Objects.requireNonNull;

/**
 * What a caller sees of a schedule.
 *
 * @param schedule the stored schedule (its template as stored, without secrets)
 * @param template the template as a job spec, secrets absent (for showing)
 * @param nextRun when it fires next; empty while paused
 * @param lastRun the last job it started
 * @param lastSuccess its last job that succeeded, the recovery point
 * @param rpoAchieved now minus the start of the last successful run (minus the schedule's creation before any run succeeded)
 * @param rpoState {@code rpoAchieved} against the target, now
 */
public record ScheduleView(StoredSchedule schedule, JobSpec template, Optional<Instant> nextRun, Optional<Run> lastRun, Optional<Run> lastSuccess,
        Duration rpoAchieved, RpoState rpoState) {
    public ScheduleView {
        requireNonNull(schedule, "schedule is null");
        requireNonNull(template, "template is null");
        requireNonNull(nextRun, "nextRun is null");
        requireNonNull(lastRun, "lastRun is null");
        requireNonNull(lastSuccess, "lastSuccess is null");
        requireNonNull(rpoAchieved, "rpoAchieved is null");
        requireNonNull(rpoState, "rpoState is null");
    }

    /** A job a schedule started. */
    public record Run(String jobId, JobState state, Optional<Instant> started, Optional<Instant> ended) {
        public Run {
            requireNonNull(jobId, "jobId is null");
            requireNonNull(state, "state is null");
            requireNonNull(started, "started is null");
            requireNonNull(ended, "ended is null");
        }
    }
}
