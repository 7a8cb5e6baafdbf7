package io.mover.jobstore.service;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.task.Priority;
import com.github.kagkarlsson.scheduler.task.helper.CustomTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.Schedules;

import io.mover.core.engine.JobKind;
import io.mover.core.engine.JobListener;
import io.mover.core.engine.JobSpec;
import io.mover.core.engine.JobState;
import io.mover.core.engine.JobSummary;
import io.mover.core.engine.TransferEngine;
import io.mover.core.plugin.PluginDescriptor;
import io.mover.core.plugin.PluginRegistry;
import io.mover.core.service.FileOutcome;
import io.mover.core.service.FileResults;
import io.mover.core.service.JobId;
import io.mover.core.service.JobService;
import io.mover.core.service.JobUpdate;
import io.mover.core.service.JobView;
import io.mover.core.service.NodeView;
import io.mover.jobstore.Dialect;
import io.mover.jobstore.JdbcScheduleStore;
import io.mover.jobstore.JobDatabase;
import io.mover.jobstore.SchedulerSettings;
import io.mover.jobstore.Schedulers;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

import static java.util.Objects.requireNonNull;

/**
 * The job service on the durable job store: jobs survive restarts and are cut into units that db-scheduler
 * runs (on any node sharing the store). A one-time driver task per job crawls and cuts ({@link JobDriver}),
 * a one-time unit task per unit moves its files ({@link UnitWorker}), the last unit ends the job
 * ({@link JobFinisher}). See docs/job-store.md. Owns the database it is given: closing the service closes it.
 * <p>
 * This class wires the node (tasks, scheduler, start and stop); what callers ask is answered by {@link JobQueries} (reads)
 * and {@link JobCommands} (submit and controls).
 */
public final class DurableJobService implements JobService {
    private static final System.Logger LOG = System.getLogger(DurableJobService.class.getName());

    private final JobDatabase database;
    private final PluginRegistry registry;
    private final Durable durable;
    private final ProgressHub progress;
    private final Scheduler scheduler;
    private final DurableBenches benches;
    private final SyncSchedules schedules;
    private final JobQueries queries;
    private final JobCommands commands;

    /**
     * Starts the service: registers this node, releases what a crashed predecessor left picked (embedded
     * store only), schedules what a crash may have left unscheduled, and starts the scheduler.
     *
     * @param credentials named credentials by name, to run a job again whose secrets come from one
     */
    public DurableJobService(JobDatabase database, PluginRegistry registry, Path scratchRoot,
            Function<String, Optional<Map<String, String>>> credentials, SchedulerSettings settings, Duration progressInterval) {
        this(database, registry, scratchRoot, credentials, settings, progressInterval, UnitCutter.MAX_ENTRIES);
    }

    /** As the public constructor, with units of at most {@code unitEntries} entries (tests cut small units). */
    DurableJobService(JobDatabase database, PluginRegistry registry, Path scratchRoot,
            Function<String, Optional<Map<String, String>>> credentials, SchedulerSettings settings, Duration progressInterval,
            int unitEntries) {
        this(database, registry, scratchRoot, credentials, settings, progressInterval, unitEntries, ScheduleTask.Probe.NONE);
    }

    /** As above, with {@code probe} in every firing's completion (tests drive a pause or resume into it). */
    DurableJobService(JobDatabase database, PluginRegistry registry, Path scratchRoot,
            Function<String, Optional<Map<String, String>>> credentials, SchedulerSettings settings, Duration progressInterval,
            int unitEntries, ScheduleTask.Probe probe) {
        this.database = requireNonNull(database, "database is null");
        this.registry = requireNonNull(registry, "registry is null");
        Clock clock = settings.clock();
        this.durable = new Durable(database.store(), new TransferEngine(registry, clock, scratchRoot.resolveSibling("catalog")), new StoredSpec(registry, credentials),
                settings.nodeName(), scratchRoot, clock);
        this.progress = new ProgressHub(durable, progressInterval);
        JobFinisher finisher = new JobFinisher(durable, progress);
        JobDriver driver = new JobDriver(durable, finisher, unitEntries, UnitCutter.MAX_BYTES);
        UnitWorker worker = new UnitWorker(durable, finisher, 200, 2000);
        // units before drivers: the jobs already started finish before new ones start, so a burst of jobs runs a
        // few at a time instead of all of them crawled and RUNNING with their units waiting behind each other
        CustomTask<Void> driverTask = Tasks.custom(Durable.DRIVER, Void.class)
                .defaultPriority(Priority.MEDIUM)
                .onFailureReschedule(Schedules.fixedDelay(Duration.ofSeconds(5)))
                .onDeadExecutionRevive()
                .execute(driver::execute);
        CustomTask<Void> unitTask = Tasks.custom(Durable.UNIT, Void.class)
                .defaultPriority(Priority.HIGH)
                .onFailureReschedule(Schedules.fixedDelay(Duration.ofSeconds(5)))
                .onDeadExecutionRevive()
                .execute(worker::execute);
        if (database.dialect() == Dialect.H2) {
            releasePicked();
        }
        durable.store.registerNode(settings.nodeName(), NodeView.localHost());
        this.benches = new DurableBenches(durable, registry, progress);
        this.schedules = new SyncSchedules(durable, new JdbcScheduleStore(database.dataSource(), clock), registry, this, probe);
        this.scheduler = Schedulers.create(database.dataSource(), database.dialect(), settings,
                List.of(driverTask, unitTask, benches.task, schedules.task()), List.of(schedules.checkTask()));
        durable.wire(scheduler, driverTask, unitTask);
        this.queries = new JobQueries(durable, progress);
        this.commands = new JobCommands(durable, benches, progress);
        commands.rescheduleUnfinished();
        schedules.start(scheduler);
        scheduler.start();
    }

    /** The recurring syncs kept in this service's store (issue 4). */
    public SyncSchedules schedules() {
        return schedules;
    }

    @Override
    public JobView submit(JobSpec spec) {
        return submit(spec, JobListener.NONE);
    }

    @Override
    public JobView submit(JobSpec spec, JobListener listener) {
        return commands.submit(spec, listener);
    }

    @Override
    public Optional<JobView> get(JobId id) {
        return queries.get(id);
    }

    @Override
    public Optional<JobView> peek(JobId id) {
        return queries.peek(id);
    }

    @Override
    public List<JobView> list(Optional<JobState> state, int offset, int limit) {
        return list(state, Optional.empty(), offset, limit);
    }

    @Override
    public List<JobView> list(Optional<JobState> state, Optional<JobKind> kind, int offset, int limit) {
        return queries.list(state, kind, offset, limit);
    }

    /** A bench's report (JSON) once it succeeded. */
    @Override
    public Optional<String> report(JobId id) {
        return queries.report(id);
    }

    @Override
    public List<JobView> listBySchedule(String scheduleId, Optional<JobState> state, int offset, int limit) {
        if (state.isPresent() && state.get() == JobState.PAUSED) {
            return JobService.super.listBySchedule(scheduleId, state, offset, limit);
        }
        return queries.listStoredBySchedule(scheduleId, state, offset, limit);
    }

    @Override
    public List<NodeView> nodes() {
        return queries.nodes();
    }

    @Override
    public long count(JobState state) {
        return queries.count(state);
    }

    /** Attempts at units this node began (a unit's first run, or a later one after a stop, a crash or a retry). */
    public long unitsClaimed() {
        return durable.unitsClaimed.sum();
    }

    /** Of {@link #unitsClaimed()}, those that took over a unit an earlier attempt had begun (a dead node's, a stopped one's). */
    public long unitsRevived() {
        return durable.unitsRevived.sum();
    }

    @Override
    public JobView cancel(JobId id) {
        return commands.cancel(id);
    }

    @Override
    public JobView pause(JobId id) {
        return commands.pause(id);
    }

    @Override
    public JobView resume(JobId id) {
        return commands.resume(id);
    }

    /**
     * Applies to the units running on this node at once, and is stored with the job: it holds after a restart, and
     * on other nodes from the first unit they run after it (units already running there keep their limits).
     */
    @Override
    public JobView update(JobId id, JobUpdate update) {
        return commands.update(id, update);
    }

    /** Every file's outcome is kept; pages are in path order (the store's keyset), {@code offset} skips through them. */
    @Override
    public FileResults files(JobId id, Optional<FileOutcome> outcome, int offset, int limit) {
        return queries.files(id, outcome, offset, limit);
    }

    @Override
    public AutoCloseable subscribe(JobId id, JobListener listener) {
        return queries.subscribe(id, listener);
    }

    @Override
    public Optional<JobSummary> await(JobId id, Duration timeout) throws InterruptedException {
        return queries.await(id, timeout);
    }

    @Override
    public List<PluginDescriptor> plugins() {
        return registry.descriptors();
    }

    /**
     * A graceful stop: units in flight stop starting files, let those in flight finish, record them and are
     * rescheduled (they continue when a scheduler on this store starts again). Then the database closes.
     */
    @Override
    public void close() {
        durable.stopping = true;
        benches.close();
        try {
            scheduler.stop();
        }
        finally {
            schedules.close();
            progress.close();
            database.close();
        }
    }

    /**
     * On the embedded store the data directory's lock guarantees this is the only mover: executions still
     * marked picked were picked by a process that died, so they are released now rather than after
     * db-scheduler's dead-execution timeout (a minute). A cluster store relies on that timeout instead.
     */
    private void releasePicked() {
        try (Connection connection = database.dataSource().getConnection(); Statement update = connection.createStatement()) {
            int released = update.executeUpdate("update scheduled_tasks set picked = false, picked_by = null, last_heartbeat = null where picked = true");
            if (released > 0) {
                LOG.log(System.Logger.Level.INFO, "released {0} executions a stopped mover left running; they run again now", released);
            }
        }
        catch (SQLException e) {
            throw new MoverException(ErrorCode.IO_ERROR, "cannot release the executions of a stopped mover: " + e.getMessage(), e);
        }
    }
}
