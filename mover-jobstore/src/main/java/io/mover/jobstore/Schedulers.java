package io.mover.jobstore;

import java.util.List;

import javax.sql.DataSource;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerName;
import com.github.kagkarlsson.scheduler.jdbc.DefaultJdbcCustomization;
import com.github.kagkarlsson.scheduler.task.Task;
import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;

import static java.util.Objects.requireNonNull;

/**
 * db-scheduler wired by hand (no Spring starter: the CLI opens the store too) on the job store's DataSource,
 * whose {@code scheduled_tasks} table the store's migration creates.
 */
public final class Schedulers {
    private Schedulers() {
    }

    /**
     * A scheduler, not started, that runs {@code tasks} and keeps one execution of each of {@code recurring}.
     * On PostgreSQL nodes claim due executions with {@code SELECT ... FOR UPDATE SKIP LOCKED}, so several
     * nodes poll without colliding; on H2 (one node) db-scheduler's default fetch-then-lock is enough.
     */
    public static Scheduler create(DataSource dataSource, Dialect dialect, SchedulerSettings settings, List<? extends Task<?>> tasks,
            List<? extends RecurringTask<?>> recurring) {
        requireNonNull(dataSource, "dataSource is null");
        requireNonNull(dialect, "dialect is null");
        requireNonNull(settings, "settings is null");
        requireNonNull(tasks, "tasks is null");
        requireNonNull(recurring, "recurring is null");
        var builder = Scheduler.create(dataSource, List.copyOf(tasks))
                .startTasks(List.copyOf(recurring))
                .schedulerName(new SchedulerName.Fixed(settings.nodeName()))
                .pollingInterval(settings.pollingInterval())
                .heartbeatInterval(settings.heartbeatInterval())
                .missedHeartbeatsLimit(settings.missedHeartbeatsLimit())
                .threads(settings.threads())
                .shutdownMaxWait(settings.shutdownMaxWait())
                .clock(settings.clock()::instant)
                .enableImmediateExecution()
                .enablePriority(); // due executions in priority order: see each task's default priority
        if (dialect == Dialect.POSTGRESQL) {
            builder.pollUsingLockAndFetch(0.5, 1.0);
        }
        else {
            // db-scheduler has no H2 customization: its generic JDBC, with timestamps written and read as UTC
            // (our "timestamp with time zone" columns hold the instant either way; autodetection would warn)
            builder.jdbcCustomization(new DefaultJdbcCustomization(true));
        }
        return builder.build();
    }
}
