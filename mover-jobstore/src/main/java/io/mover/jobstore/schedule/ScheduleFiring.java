package io.mover.jobstore.schedule;

import java.io.Serial;
import java.time.Duration;
import java.time.ZoneId;

import com.github.kagkarlsson.scheduler.task.helper.ScheduleAndData;
import com.github.kagkarlsson.scheduler.task.schedule.FixedDelay;
import com.github.kagkarlsson.scheduler.task.schedule.Schedule;

/**
 * The task data of a schedule's db-scheduler execution (a recurring task with a persistent schedule): the schedule's
 * id and its timing, which db-scheduler reads to reschedule after a failure. Ids and timing only: the template stays
 * in {@code sync_schedule}, so no spec (let alone a secret) is ever serialized into {@code scheduled_tasks}.
 *
 * @param scheduleId the schedule
 * @param cron its cron expression, or null
 * @param intervalMillis its interval, or 0
 * @param zone the zone of the cron expression
 */
public record ScheduleFiring(String scheduleId, String cron, long intervalMillis, String zone) implements ScheduleAndData {
    @Serial
    private static final long serialVersionUID = 1L;

    public static ScheduleFiring of(StoredSchedule schedule) {
        ScheduleTiming timing = schedule.definition().timing();
        return new ScheduleFiring(schedule.id(), timing.cron().orElse(null), timing.interval().map(Duration::toMillis).orElse(0L),
                timing.zone().getId());
    }

    @Override
    public Schedule getSchedule() {
        return cron != null ? ScheduleTiming.parse(cron, ZoneId.of(zone)) : FixedDelay.ofMillis(intervalMillis);
    }

    @Override
    public Object getData() {
        return scheduleId;
    }
}
