package io.mover.jobstore.schedule;

import java.time.Instant;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A schedule as the store holds it.
 *
 * @param id its id (a UUID)
 * @param definition what the user defined
 * @param created when it was created
 * @param updated when its definition last changed
 * @param lastFired when it last started a job
 * @param lastJobId the last job it started
 * @param lastJobSeenEnd whether that job's end has been recorded (RUN_ENDED)
 * @param queued whether a firing waits for the running job (QUEUE_ONE)
 * @param fired firings that started a job
 * @param skipped firings that did not, because a run was still going
 * @param submitFailures firings whose job could not be submitted
 * @param rpoState the RPO state last evaluated (events are sent when it changes)
 * @param version incremented on every change of the row
 */
public record StoredSchedule(String id, ScheduleDefinition definition, Instant created, Instant updated, Optional<Instant> lastFired,
        Optional<String> lastJobId, boolean lastJobSeenEnd, boolean queued, long fired, long skipped, long submitFailures, RpoState rpoState,
        long version) {
    public StoredSchedule {
        requireNonNull(id, "id is null");
        requireNonNull(definition, "definition is null");
        requireNonNull(created, "created is null");
        requireNonNull(updated, "updated is null");
        requireNonNull(lastFired, "lastFired is null");
        requireNonNull(lastJobId, "lastJobId is null");
        requireNonNull(rpoState, "rpoState is null");
    }

    public String name() {
        return definition.name();
    }
}
