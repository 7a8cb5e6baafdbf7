package io.mover.jobstore.service;

import java.time.Clock;
import java.util.Optional;

import com.github.kagkarlsson.scheduler.task.CompletionHandler;
import com.github.kagkarlsson.scheduler.task.ExecutionContext;
import com.github.kagkarlsson.scheduler.task.FailureHandler;
import com.github.kagkarlsson.scheduler.task.DeadExecutionHandler;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import com.github.kagkarlsson.scheduler.task.helper.RecurringTaskWithPersistentSchedule;

import io.mover.jobstore.JdbcScheduleStore;
import io.mover.jobstore.schedule.ScheduleFiring;
import io.mover.jobstore.schedule.StoredSchedule;

/**
 * The db-scheduler recurring task, with a persistent schedule per instance, that fires sync schedules: instance id =
 * schedule id. db-scheduler runs each instance on one node at a time, so each firing is made once even when several
 * movers poll. After a firing the next one is computed from the schedule as stored now (a PATCH made meanwhile wins
 * over the data the execution was created with), and a schedule paused or deleted meanwhile has its execution removed.
 */
final class ScheduleTask extends RecurringTaskWithPersistentSchedule<ScheduleFiring> {
    static final String NAME = "mover-schedule";

    private final ScheduleRuns runs;
    private final JdbcScheduleStore store;
    private final Clock clock;

    ScheduleTask(ScheduleRuns runs, JdbcScheduleStore store, Clock clock) {
        // a failed firing (the store unreachable) is retried at the schedule's next time; a dead node's firing is revived
        super(NAME, ScheduleFiring.class, new FailureHandler.OnFailureRescheduleUsingTaskDataSchedule<>(),
                new DeadExecutionHandler.ReviveDeadExecution<>(), DEFAULT_PRIORITY);
        this.runs = runs;
        this.store = store;
        this.clock = clock;
    }

    @Override
    public CompletionHandler<ScheduleFiring> execute(TaskInstance<ScheduleFiring> instance, ExecutionContext context) {
        runs.fire(instance.getData().scheduleId());
        return (complete, operations) -> {
            Optional<StoredSchedule> now = store.get(instance.getData().scheduleId());
            if (now.isEmpty() || now.get().definition().paused()) {
                operations.stop();
                return;
            }
            StoredSchedule schedule = now.get();
            operations.reschedule(complete, schedule.definition().timing().after(complete.getExecution().executionTime, clock.instant()),
                    ScheduleFiring.of(schedule));
        };
    }
}
