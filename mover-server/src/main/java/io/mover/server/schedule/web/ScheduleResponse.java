package io.mover.server.schedule.web;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.mover.jobstore.schedule.ScheduleDefinition;
import io.mover.jobstore.schedule.ScheduleEvent;
import io.mover.jobstore.schedule.ScheduleView;
import io.mover.jobstore.schedule.StoredSchedule;
import io.mover.server.job.web.JobResponse;

/**
 * A schedule as the API shows it. The template shows like a job's spec: configuration by its keys, credentials by
 * their names, never a value.
 *
 * @param id its id
 * @param name its name
 * @param cron its cron expression, when it has one
 * @param interval its interval (ISO-8601, such as PT15M), when it has one
 * @param timeZone the zone of the cron expression
 * @param overlap {@code skip} or {@code queue-one}
 * @param paused whether it is paused
 * @param nextRun when it fires next (absent while paused)
 * @param rpo the recovery point: target, achieved, and their state
 * @param lastRun the last job it started
 * @param lastSuccess its last job that succeeded (the recovery point)
 * @param queued whether a firing waits for the running job (overlap queue-one)
 * @param runs counts of its firings
 * @param template the sync job each firing submits
 * @param created when it was created
 * @param updated when it was last changed
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ScheduleResponse(String id, String name, String cron, String interval, String timeZone, String overlap, boolean paused, Instant nextRun,
        RpoResponse rpo, RunResponse lastRun, RunResponse lastSuccess, boolean queued, RunsResponse runs, JobResponse.SpecResponse template,
        Instant created, Instant updated) {

    public static ScheduleResponse of(ScheduleView view) {
        StoredSchedule schedule = view.schedule();
        ScheduleDefinition definition = schedule.definition();
        return new ScheduleResponse(schedule.id(), definition.name(), definition.timing().cron().orElse(null),
                definition.timing().interval().map(Duration::toString).orElse(null), definition.timing().zone().getId(), definition.overlap().apiName(),
                definition.paused(), view.nextRun().orElse(null),
                new RpoResponse(view.rpoState().name(), definition.rpoTarget().map(ScheduleResponse::seconds).orElse(null), seconds(view.rpoAchieved()),
                        definition.rpoTarget().map(Duration::toString).orElse(null), view.rpoAchieved().toString()),
                view.lastRun().map(RunResponse::of).orElse(null), view.lastSuccess().map(RunResponse::of).orElse(null), schedule.queued(),
                new RunsResponse(schedule.fired(), schedule.skipped(), schedule.submitFailures()), JobResponse.SpecResponse.of(view.template()),
                schedule.created(), schedule.updated());
    }

    private static double seconds(Duration duration) {
        return duration.toMillis() / 1000.0;
    }

    /**
     * The recovery point.
     *
     * @param state RPO_MET, RPO_EXCEEDED or NO_TARGET
     * @param targetSeconds the target, when there is one
     * @param achievedSeconds now minus the start of the last successful run (minus the creation before any run succeeded)
     * @param target the target in ISO-8601
     * @param achieved the achieved RPO in ISO-8601
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record RpoResponse(String state, Double targetSeconds, double achievedSeconds, String target, String achieved) {
    }

    /** A job the schedule started. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record RunResponse(String jobId, String state, Instant started, Instant ended) {
        static RunResponse of(ScheduleView.Run run) {
            return new RunResponse(run.jobId(), run.state().name(), run.started().orElse(null), run.ended().orElse(null));
        }
    }

    /**
     * @param fired firings that started a job
     * @param skipped firings that did not, because the previous run was still going
     * @param submitFailures firings whose job could not be submitted (see the events)
     */
    public record RunsResponse(long fired, long skipped, long submitFailures) {
    }

    /** {@code GET /api/v1/schedules}. */
    public record SchedulePage(List<ScheduleResponse> items) {
    }

    /** One event of a schedule. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record EventResponse(long seq, Instant at, String kind, String jobId, String message) {
        static EventResponse of(ScheduleEvent event) {
            return new EventResponse(event.seq(), event.at(), event.kind().name(), event.jobId().orElse(null), event.message());
        }
    }

    /** {@code GET /api/v1/schedules/{id}/events}: oldest first; {@code next} is the {@code after} of the next page. */
    public record EventPage(List<EventResponse> items, long next) {
    }
}
