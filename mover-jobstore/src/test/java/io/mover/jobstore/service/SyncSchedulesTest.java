package io.mover.jobstore.service;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.mover.core.engine.JobKind;
import io.mover.core.engine.JobSpec;
import io.mover.core.engine.JobState;
import io.mover.core.engine.MemoryPlugin;
import io.mover.core.engine.MemoryStore;
import io.mover.core.engine.TransferOptions;
import io.mover.core.plugin.PluginRegistry;
import io.mover.core.service.JobView;
import io.mover.jobstore.JobDatabase;
import io.mover.jobstore.JobStores;
import io.mover.jobstore.SchedulerSettings;
import io.mover.jobstore.TestClock;
import io.mover.jobstore.schedule.OverlapPolicy;
import io.mover.jobstore.schedule.RpoState;
import io.mover.jobstore.schedule.ScheduleEvent;
import io.mover.jobstore.schedule.ScheduleTiming;
import io.mover.jobstore.schedule.ScheduleView;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Recurring syncs on the durable service, on a clock the test moves by minutes: a firing happens when the clock
 * passes its time (db-scheduler polls every 100 ms and compares with this clock), never after a sleep.
 */
@Timeout(120)
class SyncSchedulesTest {
    private static final Instant T0 = Instant.parse("2026-03-01T00:00:00Z");
    private static final Duration EVERY = Duration.ofMinutes(15);
    private static final Duration RPO = Duration.ofMinutes(20);

    @TempDir
    Path dataDir;

    /**
     * Real time also passes while a test runs (the clock runs, see {@link TestClock}): a duration measured from a run's
     * start is checked within this much. An instant is checked between two readings of the clock, never as T0 plus
     * this: the time from the test's start to it (JVM start, store migrations, a first run) exceeds any slack under load.
     */
    private static final Duration SLACK = Duration.ofSeconds(60);

    private final TestClock clock = TestClock.running(T0);
    private final MemoryPlugin plugin = new MemoryPlugin();
    private final MemoryStore src = plugin.store("src");
    private final MemoryStore dst = plugin.store("dst");
    private DurableJobService service;

    private SyncSchedules open() {
        service = service(JobStores.open(dataDir, clock), clock, plugin, dataDir, ScheduleTask.Probe.NONE);
        return service.schedules();
    }

    /** The service the schedule tests run on, polling every 100 ms, with {@code probe} in every firing's completion. */
    static DurableJobService service(JobDatabase database, TestClock clock, MemoryPlugin plugin, Path dataDir, ScheduleTask.Probe probe) {
        // heartbeats every hour: the clock jumps by minutes, and no execution may look dead because of it
        SchedulerSettings settings = new SchedulerSettings("node-1", Duration.ofMillis(100), Duration.ofHours(1), 4, 4, Duration.ofSeconds(20), clock);
        return new DurableJobService(database, PluginRegistry.of(List.of(plugin), "test"), dataDir.resolve("scratch"), name -> Optional.empty(),
                settings, Duration.ofMillis(50), 50, probe);
    }

    @AfterEach
    void close() {
        src.releaseReads();
        if (service != null) {
            service.close();
        }
    }

    static JobSpec template() {
        TransferOptions options = TransferOptions.builder().blockSize(4096).bufferPoolBytes(1 << 20).retries(0, Duration.ofMillis(1)).build();
        return new JobSpec(JobKind.SYNC, "mem://src", "mem://dst", Map.of(), Map.of(), options);
    }

    private ScheduleView create(SyncSchedules schedules, OverlapPolicy overlap) {
        return schedules.create("replica", ScheduleTiming.every(EVERY), template(), Optional.of(RPO), overlap, false);
    }

    @Test
    void firesOneSyncPerFiringAndReportsTheRpo() throws InterruptedException {
        src.file("a.txt", "one".getBytes(), T0);
        SyncSchedules schedules = open();

        Instant creating = clock.instant();
        ScheduleView created = create(schedules, OverlapPolicy.SKIP);
        Instant createdBy = clock.instant();

        JobView first = awaitRuns(created.schedule().id(), 1).getFirst();
        assertThat(first.spec().scheduleId()).contains(created.schedule().id());
        assertThat(awaitEnd(first)).isEqualTo(JobState.SUCCEEDED);
        assertThat(dst.filePaths()).containsExactly("a.txt");
        ScheduleView after = schedules.find("replica").orElseThrow();
        assertThat(after.lastSuccess()).hasValueSatisfying(run -> assertThat(run.jobId()).isEqualTo(first.id().value()));
        assertThat(after.rpoAchieved()).isLessThan(SLACK);
        assertThat(after.rpoState()).isEqualTo(RpoState.RPO_MET);
        assertThat(after.nextRun().orElseThrow()).as("the first firing, made at creation, plus the interval")
                .isBetween(creating.plus(EVERY), createdBy.plus(EVERY));

        src.file("b.txt", "two".getBytes(), T0);
        clock.advance(Duration.ofMinutes(10));
        assertThat(schedules.find("replica").orElseThrow().rpoAchieved()).isBetween(Duration.ofMinutes(10), Duration.ofMinutes(10).plus(SLACK));
        assertThat(service.listBySchedule(created.schedule().id(), Optional.empty(), 0, 10)).as("not due yet").hasSize(1);

        clock.advance(Duration.ofMinutes(5));
        JobView second = awaitRuns(created.schedule().id(), 2).getFirst();
        assertThat(awaitEnd(second)).isEqualTo(JobState.SUCCEEDED);
        assertThat(dst.filePaths()).containsExactly("a.txt", "b.txt");
        assertThat(schedules.find(created.schedule().id()).orElseThrow().rpoAchieved()).isLessThan(SLACK);
        assertThat(service.listBySchedule("another", Optional.empty(), 0, 10)).isEmpty();
        schedules.checkNow(); // the end of a run is seen within one progress interval; the check sees it now
        assertThat(kinds(schedules)).containsSubsequence(ScheduleEvent.Kind.CREATED, ScheduleEvent.Kind.FIRED, ScheduleEvent.Kind.RUN_ENDED,
                ScheduleEvent.Kind.FIRED, ScheduleEvent.Kind.RUN_ENDED);
    }

    /** A schedule whose first run is held (its reads wait), and the clock at its second firing. */
    private JobView heldRunAndNextFiring(OverlapPolicy overlap) throws InterruptedException {
        src.file("a.txt", "one".getBytes(), T0);
        src.holdReads();
        ScheduleView created = create(open(), overlap);
        JobView first = awaitRuns(created.schedule().id(), 1).getFirst();
        clock.advance(EVERY);
        return first;
    }

    @Test
    void overlapSkipDropsTheFiringWhileTheRunIsGoing() throws InterruptedException {
        JobView first = heldRunAndNextFiring(OverlapPolicy.SKIP);
        SyncSchedules schedules = service.schedules();
        await(() -> schedules.find("replica").orElseThrow().schedule().skipped() == 1, "the firing was skipped");
        src.releaseReads();
        assertThat(awaitEnd(first)).isEqualTo(JobState.SUCCEEDED);
        schedules.checkNow();

        assertThat(service.listBySchedule(first.spec().scheduleId().orElseThrow(), Optional.empty(), 0, 10)).hasSize(1);
        assertThat(kinds(schedules)).contains(ScheduleEvent.Kind.SKIPPED).doesNotContain(ScheduleEvent.Kind.QUEUED);
    }

    @Test
    void overlapQueueOneStartsOneRunWhenTheRunningOneEnds() throws InterruptedException {
        JobView first = heldRunAndNextFiring(OverlapPolicy.QUEUE_ONE);
        SyncSchedules schedules = service.schedules();
        String id = first.spec().scheduleId().orElseThrow();
        await(() -> schedules.find("replica").orElseThrow().schedule().queued(), "the firing was queued");
        clock.advance(EVERY);
        await(() -> schedules.find("replica").orElseThrow().schedule().skipped() == 1, "the second firing was skipped: one is queued already");
        src.file("b.txt", "two".getBytes(), T0);
        src.releaseReads();

        JobView second = awaitRuns(id, 2).getFirst();
        assertThat(awaitEnd(first)).isEqualTo(JobState.SUCCEEDED);
        assertThat(awaitEnd(second)).isEqualTo(JobState.SUCCEEDED);
        assertThat(dst.filePaths()).containsExactly("a.txt", "b.txt");
        schedules.checkNow();
        assertThat(service.listBySchedule(id, Optional.empty(), 0, 10)).as("one run per firing that was not skipped").hasSize(2);
        assertThat(schedules.find("replica").orElseThrow().schedule().queued()).isFalse();
        assertThat(kinds(schedules)).containsSubsequence(ScheduleEvent.Kind.FIRED, ScheduleEvent.Kind.QUEUED, ScheduleEvent.Kind.SKIPPED,
                ScheduleEvent.Kind.RUN_ENDED, ScheduleEvent.Kind.FIRED);
    }

    @Test
    void theRpoIsExceededWhenRunsFailAndMetAgainAfterASuccess() throws InterruptedException {
        src.file("a.txt", "one".getBytes(), T0);
        SyncSchedules schedules = open();
        ScheduleView created = create(schedules, OverlapPolicy.SKIP);
        assertThat(awaitEnd(awaitRuns(created.schedule().id(), 1).getFirst())).isEqualTo(JobState.SUCCEEDED);

        src.file("b.txt", "two".getBytes(), T0);
        src.failReads("b.txt", 1000);
        clock.advance(EVERY);
        assertThat(awaitEnd(awaitRuns(created.schedule().id(), 2).getFirst())).isEqualTo(JobState.COMPLETED_WITH_ERRORS);
        schedules.checkNow();
        assertThat(schedules.find("replica").orElseThrow().rpoState()).as("15 min of a 20 min target").isEqualTo(RpoState.RPO_MET);

        clock.advance(Duration.ofMinutes(6));
        schedules.checkNow();
        ScheduleView exceeded = schedules.find("replica").orElseThrow();
        assertThat(exceeded.rpoState()).isEqualTo(RpoState.RPO_EXCEEDED);
        assertThat(exceeded.schedule().rpoState()).isEqualTo(RpoState.RPO_EXCEEDED);
        assertThat(exceeded.rpoAchieved()).isBetween(Duration.ofMinutes(21), Duration.ofMinutes(21).plus(SLACK));
        assertThat(lastEvent(schedules, ScheduleEvent.Kind.RPO_EXCEEDED).message()).matches(".*21m \\d+s is over the target 20m 0s.*");

        src.failReads("b.txt", 0);
        clock.advance(Duration.ofMinutes(9));
        assertThat(awaitEnd(awaitRuns(created.schedule().id(), 3).getFirst())).isEqualTo(JobState.SUCCEEDED);
        await(() -> schedules.find("replica").orElseThrow().schedule().rpoState() == RpoState.RPO_MET, "the RPO is met again");
        assertThat(lastEvent(schedules, ScheduleEvent.Kind.RPO_MET).message()).contains("s is within the target 20m 0s");
    }

    @Test
    void theRpoIsExceededWhileARunTakesTooLong() throws InterruptedException {
        src.file("a.txt", "one".getBytes(), T0);
        SyncSchedules schedules = open();
        ScheduleView created = create(schedules, OverlapPolicy.SKIP);
        assertThat(awaitEnd(awaitRuns(created.schedule().id(), 1).getFirst())).isEqualTo(JobState.SUCCEEDED);

        src.file("b.txt", "two".getBytes(), T0);
        src.holdReads();
        clock.advance(EVERY);
        JobView slow = awaitRuns(created.schedule().id(), 2).getFirst();
        await(() -> service.get(slow.id()).orElseThrow().state() == JobState.RUNNING, "the run started (at 15 min)");
        clock.advance(Duration.ofMinutes(6));
        // the periodic check (every 10 s of this clock) is due: it notices without being asked
        await(() -> schedules.find("replica").orElseThrow().schedule().rpoState() == RpoState.RPO_EXCEEDED, "the check saw the RPO exceeded");

        src.releaseReads();
        assertThat(awaitEnd(slow)).isEqualTo(JobState.SUCCEEDED);
        await(() -> schedules.find("replica").orElseThrow().schedule().rpoState() == RpoState.RPO_MET, "its end brought the RPO back");
        assertThat(schedules.find("replica").orElseThrow().rpoAchieved()).isBetween(Duration.ofMinutes(6), Duration.ofMinutes(6).plus(SLACK));
    }

    @Test
    void aScheduleSurvivesARestartAndFiresAfterIt() throws InterruptedException {
        src.file("a.txt", "one".getBytes(), T0);
        SyncSchedules schedules = open();
        Instant creating = clock.instant();
        ScheduleView created = create(schedules, OverlapPolicy.SKIP);
        Instant createdBy = clock.instant();
        assertThat(awaitEnd(awaitRuns(created.schedule().id(), 1).getFirst())).isEqualTo(JobState.SUCCEEDED);
        service.close();
        service = null;

        SyncSchedules again = open();
        assertThat(again.list()).extracting(view -> view.schedule().name()).containsExactly("replica");
        assertThat(again.find("replica").orElseThrow().nextRun().orElseThrow()).isBetween(creating.plus(EVERY), createdBy.plus(EVERY));
        clock.advance(EVERY);
        assertThat(awaitEnd(awaitRuns(created.schedule().id(), 2).getFirst())).isEqualTo(JobState.SUCCEEDED);
    }

    @Test
    void aPausedScheduleDoesNotFireAndResumesOnItsRate() throws InterruptedException {
        src.file("a.txt", "one".getBytes(), T0);
        SyncSchedules schedules = open();
        ScheduleView created = create(schedules, OverlapPolicy.SKIP);
        assertThat(awaitEnd(awaitRuns(created.schedule().id(), 1).getFirst())).isEqualTo(JobState.SUCCEEDED);

        assertThat(schedules.pause("replica").nextRun()).isEmpty();
        clock.advance(Duration.ofHours(1));
        schedules.checkNow();
        assertThat(service.listBySchedule(created.schedule().id(), Optional.empty(), 0, 10)).hasSize(1);

        // between two readings of the clock, not T0 + 1 h + SLACK (see SLACK)
        Instant asked = clock.instant();
        ScheduleView resumed = schedules.resume("replica");
        assertThat(resumed.nextRun().orElseThrow()).as("overdue: at once").isBetween(asked, clock.instant());
        assertThat(awaitEnd(awaitRuns(created.schedule().id(), 2).getFirst())).isEqualTo(JobState.SUCCEEDED);
        assertThat(kinds(schedules)).containsSubsequence(ScheduleEvent.Kind.PAUSED, ScheduleEvent.Kind.RESUMED, ScheduleEvent.Kind.FIRED);

        schedules.delete("replica");
        assertThat(schedules.list()).isEmpty();
        assertThat(service.listBySchedule(created.schedule().id(), Optional.empty(), 0, 10)).as("its jobs stay").hasSize(2);
    }

    @Test
    void refusesBadSchedulesNamingTheField() {
        src.file("a.txt", "one".getBytes(), T0);
        SyncSchedules schedules = open();
        JobSpec sync = template();

        assertThat(field(() -> ScheduleTiming.cron("*/15 * * *", java.time.ZoneOffset.UTC))).isEqualTo("cron");
        assertThat(field(() -> ScheduleTiming.cron("61 * * * *", java.time.ZoneOffset.UTC))).isEqualTo("cron");
        assertThat(field(() -> ScheduleTiming.every(Duration.ofSeconds(1)))).isEqualTo("interval");
        assertThat(field(() -> schedules.create("bad name!", ScheduleTiming.every(EVERY), sync, Optional.empty(), OverlapPolicy.SKIP, true)))
                .isEqualTo("name");
        JobSpec unknown = new JobSpec(JobKind.SYNC, "nope://x", "mem://dst", Map.of(), Map.of(), sync.options());
        assertThat(field(() -> schedules.create("a", ScheduleTiming.every(EVERY), unknown, Optional.empty(), OverlapPolicy.SKIP, true)))
                .isEqualTo("template.source");
        JobSpec copy = new JobSpec(JobKind.COPY, "mem://src", "mem://dst", Map.of(), Map.of(), sync.options());
        assertThat(field(() -> schedules.create("a", ScheduleTiming.every(EVERY), copy, Optional.empty(), OverlapPolicy.SKIP, true)))
                .isEqualTo("template.kind");
        JobSpec missing = new JobSpec(JobKind.SYNC, "mem://absent", "mem://dst", Map.of(), Map.of(), sync.options());
        assertThat(field(() -> schedules.create("a", ScheduleTiming.every(EVERY), missing, Optional.empty(), OverlapPolicy.SKIP, true)))
                .isEqualTo("template");
        // a location's query may hold a credential (an Azure SAS): never stored, so a schedule cannot keep it
        JobSpec secret = new JobSpec(JobKind.SYNC, "mem://src?sig=s3cr3t", "mem://dst", Map.of(), Map.of(), sync.options());
        assertThat(field(() -> schedules.create("a", ScheduleTiming.every(EVERY), secret, Optional.empty(), OverlapPolicy.SKIP, true)))
                .isEqualTo("template.source");
        JobSpec unknownKey = new JobSpec(JobKind.SYNC, "mem://src", "mem://dst", Map.of(), Map.of("token", "s3cr3t"), sync.options());
        assertThat(field(() -> schedules.create("a", ScheduleTiming.every(EVERY), unknownKey, Optional.empty(), OverlapPolicy.SKIP, true)))
                .isEqualTo("template");

        schedules.create("a", ScheduleTiming.cron("0 3 * * *", java.time.ZoneId.of("Europe/Paris")), sync, Optional.empty(), OverlapPolicy.SKIP, true);
        assertThat(field(() -> schedules.create("a", ScheduleTiming.every(EVERY), sync, Optional.empty(), OverlapPolicy.SKIP, true)))
                .isEqualTo("name");
        assertThat(schedules.list()).singleElement().satisfies(view -> {
            assertThat(view.rpoState()).isEqualTo(RpoState.NO_TARGET);
            assertThat(view.nextRun()).as("paused").isEmpty();
        });
        assertThat(schedules.resume("a").nextRun()).as("03:00 in Paris is 02:00 UTC in March").contains(Instant.parse("2026-03-01T02:00:00Z"));
    }

    private static String field(Runnable call) {
        try {
            call.run();
        }
        catch (io.mover.jobstore.schedule.InvalidScheduleException e) {
            return e.field();
        }
        throw new AssertionError("accepted");
    }

    private List<JobView> awaitRuns(String scheduleId, int count) throws InterruptedException {
        await(() -> service.listBySchedule(scheduleId, Optional.empty(), 0, 100).size() >= count, count + " runs of the schedule");
        return service.listBySchedule(scheduleId, Optional.empty(), 0, 100);
    }

    private JobState awaitEnd(JobView job) throws InterruptedException {
        return service.await(job.id(), Duration.ofSeconds(60)).orElseThrow(() -> new AssertionError("job did not end in 60 s")).state();
    }

    private static List<ScheduleEvent.Kind> kinds(SyncSchedules schedules) {
        return schedules.events("replica", 0, 200).stream().map(ScheduleEvent::kind).toList();
    }

    private static ScheduleEvent lastEvent(SyncSchedules schedules, ScheduleEvent.Kind kind) {
        return schedules.events("replica", 0, 200).stream().filter(event -> event.kind() == kind).reduce((a, b) -> b).orElseThrow();
    }

    /** Waits for something the scheduler's threads do (bounded; it polls, it does not sleep to let time pass). */
    static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting: " + what);
            }
            Thread.sleep(20);
        }
    }
}
