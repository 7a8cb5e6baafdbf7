package io.mover.jobstore.service;

import java.time.Clock;

import com.github.kagkarlsson.scheduler.task.CompletionHandler;
import com.github.kagkarlsson.scheduler.task.DeadExecutionHandler;
import com.github.kagkarlsson.scheduler.task.ExecutionContext;
import com.github.kagkarlsson.scheduler.task.FailureHandler;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import com.github.kagkarlsson.scheduler.task.helper.RecurringTaskWithPersistentSchedule;

import io.mover.jobstore.JdbcScheduleStore;
import io.mover.jobstore.schedule.ScheduleFiring;
import io.mover.jobstore.schedule.StoredSchedule;
import io.mover.spi.ErrorCategory;
import io.mover.spi.MoverException;

/**
 * The db-scheduler recurring task, with a persistent schedule per instance, that fires sync schedules: instance id =
 * schedule id. db-scheduler runs each instance on one node at a time, so each firing is made once even when several
 * movers poll. After a firing the next one is computed from the schedule as stored now (a PATCH made meanwhile wins
 * over the data the execution was created with), and a schedule paused or deleted meanwhile has its execution removed.
 * <p>
 * That completion reads the schedule and acts on its execution under the schedule's row lock, as
 * {@link SyncSchedules} does when a pause, resume or edit aligns the execution: while the firing runs, the execution
 * is picked and a pause cannot remove it (db-scheduler refuses to cancel it), so the completion must decide; deciding
 * from a read made outside the lock let a pause and resume slip between the read and the act (a resume whose
 * execution the completion then removed was lost until a restart). Under the lock, whichever comes last sees the
 * other's outcome.
 */
final class ScheduleTask extends RecurringTaskWithPersistentSchedule<ScheduleFiring> {
    static final String NAME = "mover-schedule";

    /** Test seams in a firing's completion (tests drive a pause or resume into it); {@link #NONE} otherwise. */
    interface Probe {
        Probe NONE = new Probe() {
        };

        /** The firing is done and its completion starts, before it takes the schedule's lock. */
        default void completing(String scheduleId) {
        }

        /** Under the lock, the completion has read the schedule: it keeps the execution, or removes it; it has not acted yet. */
        default void decided(String scheduleId, boolean keep) {
        }
    }

    private final ScheduleRuns runs;
    private final JdbcScheduleStore store;
    private final Clock clock;
    private final Probe probe;

    ScheduleTask(ScheduleRuns runs, JdbcScheduleStore store, Clock clock, Probe probe) {
        // a failed firing (the store unreachable) is retried at the schedule's next time; a dead node's firing is revived
        super(NAME, ScheduleFiring.class, new FailureHandler.OnFailureRescheduleUsingTaskDataSchedule<>(),
                new DeadExecutionHandler.ReviveDeadExecution<>(), DEFAULT_PRIORITY);
        this.runs = runs;
        this.store = store;
        this.clock = clock;
        this.probe = probe;
    }

    @Override
    public CompletionHandler<ScheduleFiring> execute(TaskInstance<ScheduleFiring> instance, ExecutionContext context) {
        String id = instance.getData().scheduleId();
        runs.fire(id);
        return (complete, operations) -> {
            probe.completing(id);
            try {
                store.change(id, locked -> {
                    StoredSchedule schedule = locked.schedule();
                    boolean keep = !schedule.definition().paused();
                    probe.decided(id, keep);
                    // db-scheduler writes on its own connection and commits before this returns: the lock is released after
                    if (keep) {
                        operations.reschedule(complete, schedule.definition().timing().after(complete.getExecution().executionTime, clock.instant()),
                                ScheduleFiring.of(schedule));
                    }
                    else {
                        operations.stop();
                    }
                    return null;
                });
            }
            catch (MoverException e) {
                if (e.category() != ErrorCategory.NOT_FOUND) {
                    throw e; // left picked: db-scheduler revives it as a dead execution, and the next completion decides
                }
                // deleted (the delete waited for any lock held here): its execution goes with it
                probe.decided(id, false);
                operations.stop();
            }
        };
    }
}
