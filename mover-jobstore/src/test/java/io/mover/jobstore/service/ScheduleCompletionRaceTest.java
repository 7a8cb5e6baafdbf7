package io.mover.jobstore.service;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Supplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.mover.core.engine.MemoryPlugin;
import io.mover.core.engine.MemoryStore;
import io.mover.jobstore.JobDatabase;
import io.mover.jobstore.JobStores;
import io.mover.jobstore.TestClock;
import io.mover.jobstore.schedule.OverlapPolicy;
import io.mover.jobstore.schedule.ScheduleEvent;
import io.mover.jobstore.schedule.ScheduleTiming;
import io.mover.jobstore.schedule.ScheduleView;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A pause or resume racing a firing's completion ({@link ScheduleTask}): the completion reads the schedule, then
 * keeps or removes its execution. The probe runs the user's call in that gap, on another thread, and lets the
 * completion act once that call has either finished (the gap was open: the race is lost) or is waiting for the
 * schedule's row lock (the gap is closed). Deterministic: no sleep decides an order, every wait is bounded.
 */
@Timeout(120)
class ScheduleCompletionRaceTest {
    private static final Duration EVERY = Duration.ofMinutes(15);

    @TempDir
    Path dataDir;

    private final TestClock clock = TestClock.running(Instant.parse("2026-03-01T00:00:00Z"));
    private final MemoryPlugin plugin = new MemoryPlugin();
    private final MemoryStore src = plugin.store("src");
    private volatile Consumer<String> onCompleting = id -> {
    };
    private volatile BiConsumer<String, Boolean> onDecided = (id, keep) -> {
    };
    private JobDatabase database;
    private DurableJobService service;

    private SyncSchedules open() {
        // the run a firing starts is held: its end would check the schedule under its lock, and be taken for the racing call
        src.file("a.txt", "one".getBytes(), clock.instant());
        src.holdReads();
        plugin.store("dst");
        ScheduleTask.Probe probe = new ScheduleTask.Probe() {
            @Override
            public void completing(String scheduleId) {
                onCompleting.accept(scheduleId);
            }

            @Override
            public void decided(String scheduleId, boolean keep) {
                onDecided.accept(scheduleId, keep);
            }
        };
        database = JobStores.open(dataDir, clock);
        service = SyncSchedulesTest.service(database, clock, plugin, dataDir, probe);
        return service.schedules();
    }

    @AfterEach
    void close() {
        src.releaseReads();
        Optional.ofNullable(service).ifPresent(DurableJobService::close);
    }

    /** Paused while its first firing runs (db-scheduler refuses to cancel a picked execution), resumed as that firing completes. */
    @Test
    void aResumeAsThePausedFiringCompletesKeepsTheSchedulesExecution() throws Exception {
        SyncSchedules schedules = open();
        AtomicBoolean paused = new AtomicBoolean();
        AtomicBoolean raced = new AtomicBoolean();
        CompletableFuture<ScheduleView> resumed = new CompletableFuture<>();
        onCompleting = id -> {
            if (paused.compareAndSet(false, true)) {
                schedules.pause(id);
            }
        };
        onDecided = (id, keep) -> {
            if (!keep && raced.compareAndSet(false, true)) {
                race(() -> schedules.resume(id), resumed);
            }
        };
        String id = create(schedules);

        assertThat(resumed.get(30, TimeUnit.SECONDS).schedule().definition().paused()).isFalse();
        SyncSchedulesTest.await(() -> execution(id).map(picked -> !picked).orElse(true), "the firing's completion acted");
        assertThat(execution(id)).as("the resumed schedule's execution, which the completion must not remove").contains(false);
        ScheduleView after = schedules.find(id).orElseThrow();
        Instant fired = after.schedule().lastFired().orElseThrow();
        assertThat(after.nextRun()).as("the next firing, on its rate").hasValueSatisfying(next -> assertThat(next).isBetween(fired, fired.plus(EVERY)));
        assertThat(schedules.events(id, 0, 50)).extracting(ScheduleEvent::kind)
                .containsSubsequence(ScheduleEvent.Kind.FIRED, ScheduleEvent.Kind.PAUSED, ScheduleEvent.Kind.RESUMED);
    }

    /** Paused as its first firing completes: the completion must not put back an execution the pause could not remove. */
    @Test
    void aPauseAsTheFiringCompletesLeavesNoExecution() throws Exception {
        SyncSchedules schedules = open();
        AtomicBoolean raced = new AtomicBoolean();
        CompletableFuture<ScheduleView> paused = new CompletableFuture<>();
        onDecided = (id, keep) -> {
            if (keep && raced.compareAndSet(false, true)) {
                race(() -> schedules.pause(id), paused);
            }
        };
        String id = create(schedules);

        assertThat(paused.get(30, TimeUnit.SECONDS).nextRun()).isEmpty();
        SyncSchedulesTest.await(() -> execution(id).map(picked -> !picked).orElse(true), "the firing's completion acted");
        assertThat(execution(id)).as("a paused schedule has no execution").isEmpty();
        assertThat(schedules.find(id).orElseThrow().schedule().definition().paused()).isTrue();
    }

    /** A schedule firing every 15 min: its first firing is at once. */
    private static String create(SyncSchedules schedules) {
        return schedules.create("replica", ScheduleTiming.every(EVERY), SyncSchedulesTest.template(), Optional.empty(), OverlapPolicy.SKIP, false)
                .schedule().id();
    }

    /** Runs {@code call} on another thread; returns once it finished or waits for a schedule's row lock. */
    private void race(Supplier<ScheduleView> call, CompletableFuture<ScheduleView> result) {
        Thread.ofPlatform().daemon().start(() -> {
            try {
                result.complete(call.get());
            }
            catch (Throwable e) {
                result.completeExceptionally(e);
            }
        });
        try {
            SyncSchedulesTest.await(() -> result.isDone() || waitsForScheduleLock(), "the racing call finished or waits for the schedule's lock");
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Whether an H2 session waits for a lock while reading a schedule's row for update. */
    private boolean waitsForScheduleLock() {
        try (Connection connection = database.dataSource().getConnection();
                PreparedStatement select = connection.prepareStatement("select count(*) from information_schema.sessions "
                        + "where blocker_id is not null and lower(executing_statement) like '%from sync_schedule%for update%'");
                ResultSet rows = select.executeQuery()) {
            return rows.next() && rows.getLong(1) > 0;
        }
        catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The schedule's db-scheduler execution: whether it is picked, empty when there is none. */
    private Optional<Boolean> execution(String scheduleId) {
        try (Connection connection = database.dataSource().getConnection();
                PreparedStatement select = connection.prepareStatement("select picked from scheduled_tasks where task_name = ? and task_instance = ?")) {
            select.setString(1, ScheduleTask.NAME);
            select.setString(2, scheduleId);
            try (ResultSet rows = select.executeQuery()) {
                return rows.next() ? Optional.of(rows.getBoolean(1)) : Optional.empty();
            }
        }
        catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
