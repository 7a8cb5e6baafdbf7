package io.mover.jobstore;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.Schedules;

import static org.assertj.core.api.Assertions.assertThat;

/** db-scheduler on the job store's database, run on each database (see the subclasses). */
abstract class SchedulerContract {
    // short intervals: a dead execution is one whose heartbeat is older than 4 x 100 ms
    static final SchedulerSettings FAST = new SchedulerSettings("node-test", Duration.ofMillis(100), Duration.ofMillis(100), 4, 2,
            Duration.ofSeconds(5), Clock.systemUTC());
    static final long WAIT_SECONDS = 20;

    JobDatabase database;
    Scheduler scheduler;

    abstract JobDatabase openDatabase();

    @BeforeEach
    void open() {
        database = openDatabase();
    }

    @AfterEach
    void close() {
        if (scheduler != null) {
            scheduler.stop();
        }
        database.close();
    }

    @Test
    void runsAOneTimeTaskAndARecurringOne() throws Exception {
        CountDownLatch ran = new CountDownLatch(1);
        CountDownLatch ticks = new CountDownLatch(2);
        OneTimeTask<String> once = Tasks.oneTime("once", String.class).execute((instance, context) -> {
            if ("hello".equals(instance.getData())) {
                ran.countDown();
            }
        });
        RecurringTask<Void> tick = Tasks.recurring("tick", Schedules.fixedDelay(Duration.ofMillis(100))).execute((instance, context) -> ticks.countDown());
        scheduler = Schedulers.create(database.dataSource(), database.dialect(), FAST, List.of(once), List.of(tick));
        scheduler.start();
        scheduler.schedule(once.instance("job-1", "hello"), Instant.now());

        assertThat(ran.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("the one-time task ran").isTrue();
        assertThat(ticks.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("the recurring task ran twice").isTrue();
        assertThat(awaitRows("once")).as("a finished one-time execution is removed").isZero();
    }

    @Test
    void revivesTheExecutionOfADeadNode() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch revived = new CountDownLatch(1);
        OneTimeTask<Void> unit = Tasks.oneTime("unit").execute((instance, context) -> {
            runs.incrementAndGet();
            revived.countDown();
        });
        // a node picked this execution an hour ago and died: its heartbeat stopped then
        Instant hourAgo = Instant.now().minus(Duration.ofHours(1));
        try (Connection connection = database.dataSource().getConnection();
                PreparedStatement insert = connection.prepareStatement("insert into scheduled_tasks (task_name, task_instance, task_data, "
                        + "execution_time, picked, picked_by, last_heartbeat, version) values ('unit', 'job-1/7', null, ?, true, 'dead-node', ?, 1)")) {
            insert.setObject(1, OffsetDateTime.ofInstant(hourAgo, ZoneOffset.UTC));
            insert.setObject(2, OffsetDateTime.ofInstant(hourAgo, ZoneOffset.UTC));
            insert.executeUpdate();
        }
        scheduler = Schedulers.create(database.dataSource(), database.dialect(), FAST, List.of(unit), List.of());
        scheduler.start();

        assertThat(revived.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("the dead node's execution ran on this node").isTrue();
        assertThat(awaitRows("unit")).isZero();
        assertThat(runs).hasValue(1);
    }

    /** Rows left of a task, once they are gone or after the bounded wait. */
    private long awaitRows(String task) throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        long rows;
        do {
            rows = rows(task);
            if (rows == 0) {
                return 0;
            }
            Thread.sleep(50);
        } while (System.nanoTime() < deadline);
        return rows;
    }

    private long rows(String task) throws SQLException {
        try (Connection connection = database.dataSource().getConnection();
                PreparedStatement select = connection.prepareStatement("select count(*) from scheduled_tasks where task_name = ?")) {
            select.setString(1, task);
            try (ResultSet result = select.executeQuery()) {
                result.next();
                return result.getLong(1);
            }
        }
    }
}
