package io.mover.jobstore.service;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import com.github.kagkarlsson.scheduler.ScheduledExecution;
import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.task.TaskInstanceId;
import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.FixedDelay;

import io.mover.core.engine.JobKind;
import io.mover.core.engine.JobSpec;
import io.mover.core.engine.PreparedJob;
import io.mover.core.plugin.PluginRegistry;
import io.mover.core.service.JobId;
import io.mover.core.service.JobService;
import io.mover.jobstore.JdbcScheduleStore;
import io.mover.jobstore.StoredJob;
import io.mover.jobstore.schedule.InvalidScheduleException;
import io.mover.jobstore.schedule.OverlapPolicy;
import io.mover.jobstore.schedule.RpoState;
import io.mover.jobstore.schedule.ScheduleDefinition;
import io.mover.jobstore.schedule.ScheduleEvent;
import io.mover.jobstore.schedule.ScheduleFiring;
import io.mover.jobstore.schedule.ScheduleTiming;
import io.mover.jobstore.schedule.ScheduleUpdate;
import io.mover.jobstore.schedule.ScheduleView;
import io.mover.jobstore.schedule.StoredSchedule;
import io.mover.spi.EndpointUri;
import io.mover.spi.ErrorCategory;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

import static java.util.Objects.requireNonNull;

/**
 * Recurring syncs (issue 4, docs/schedules.md): schedules kept in the job store, each fired by a db-scheduler
 * recurring task with a persistent schedule ({@link ScheduleTask}), one sync job per firing, and a periodic check
 * ({@code mover-schedule-check}, every 10 s) that notices ended runs and RPO crossings. Thread-safe.
 * <p>
 * Invariant: an active schedule has one execution, a paused or deleted one none. Whatever changes a schedule
 * (create, update, pause, resume, start, the check) then aligns its execution with the row under the row's lock
 * ({@link #align}), as the firing's completion does ({@link ScheduleTask}): the two serialize, so the last one sees
 * the other's outcome. The check aligns every schedule too, for a node that died between the change and the align.
 */
public final class SyncSchedules implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(SyncSchedules.class.getName());
    static final String CHECK_TASK = "mover-schedule-check";
    static final Duration CHECK_INTERVAL = Duration.ofSeconds(10);

    private final Durable durable;
    private final JdbcScheduleStore store;
    private final PluginRegistry registry;
    private final ScheduleRuns runs;
    private final ScheduleTask task;
    private final RecurringTask<Void> check;
    private volatile JobService jobs;
    private volatile SchedulerClient scheduler;

    SyncSchedules(Durable durable, JdbcScheduleStore store, PluginRegistry registry, JobService jobs, ScheduleTask.Probe probe) {
        this.durable = durable;
        this.store = store;
        this.registry = registry;
        this.jobs = jobs;
        this.runs = new ScheduleRuns(durable, store, () -> this.jobs);
        this.task = new ScheduleTask(runs, store, durable.clock, probe);
        this.check = Tasks.recurring(CHECK_TASK, FixedDelay.of(CHECK_INTERVAL)).execute((instance, context) -> checkNow());
    }

    ScheduleTask task() {
        return task;
    }

    RecurringTask<Void> checkTask() {
        return check;
    }

    /**
     * Wires the scheduler; every schedule's execution is aligned (one if active: a crash may have come between storing
     * it and scheduling it), and the runs still going are watched again.
     */
    void start(SchedulerClient client) {
        this.scheduler = client;
        for (StoredSchedule schedule : store.list()) {
            align(schedule.id(), false);
            if (!schedule.lastJobSeenEnd() || schedule.queued()) {
                schedule.lastJobId().ifPresent(job -> runs.watch(schedule.id(), job));
            }
        }
    }

    /** Jobs are submitted through {@code service} from now on (the server's metered service, so their files are counted). */
    public void submitThrough(JobService service) {
        this.jobs = requireNonNull(service, "service is null");
    }

    /**
     * Creates a schedule. The template is checked as a job would be (plugins, endpoints, options) and must be a sync
     * whose secrets come from named credentials: a schedule outlives the memory that inline secrets live in.
     *
     * @throws InvalidScheduleException naming the field at fault
     */
    public ScheduleView create(String name, ScheduleTiming timing, JobSpec template, Optional<Duration> rpoTarget, OverlapPolicy overlap,
            boolean paused) {
        String templateJson = checkTemplate(template);
        ScheduleDefinition definition = new ScheduleDefinition(name, timing, templateJson, rpoTarget, overlap, paused);
        String id = UUID.randomUUID().toString();
        RpoState rpo = rpoTarget.isPresent() ? RpoState.RPO_MET : RpoState.NO_TARGET;
        StoredSchedule stored = store.create(id, definition, rpo, "created: " + timing + ", RPO target "
                + rpoTarget.map(Durations::text).orElse("none") + ", overlap " + overlap.apiName() + (paused ? ", paused" : ""));
        align(id, false);
        return view(stored);
    }

    /** A schedule by id, else by name. */
    public Optional<ScheduleView> find(String idOrName) {
        return lookup(idOrName).map(this::view);
    }

    /** Every schedule, by name. */
    public List<ScheduleView> list() {
        return store.list().stream().map(this::view).toList();
    }

    /** Applies {@code update}; a new timing takes effect from the next firing, a paused schedule stops firing. */
    public ScheduleView update(String idOrName, ScheduleUpdate update) {
        requireNonNull(update, "update is null");
        StoredSchedule current = require(idOrName);
        ScheduleDefinition was = current.definition();
        String templateJson = update.template().map(this::checkTemplate).orElse(was.templateJson());
        Optional<Duration> target = update.clearRpoTarget() ? Optional.empty() : update.rpoTarget().or(was::rpoTarget);
        ScheduleDefinition next = new ScheduleDefinition(update.name().orElse(was.name()), update.timing().orElse(was.timing()), templateJson,
                target, update.overlap().orElse(was.overlap()), update.paused().orElse(was.paused()));
        StoredSchedule changed = store.change(current.id(), locked -> {
            locked.define(next);
            if (update.pausedOnly()) {
                locked.event(next.paused() ? ScheduleEvent.Kind.PAUSED : ScheduleEvent.Kind.RESUMED, Optional.empty(), next.paused() ? "paused" : "resumed");
            }
            else {
                locked.event(ScheduleEvent.Kind.UPDATED, Optional.empty(), "changed: " + update.describe());
            }
            RpoState rpo = ScheduleRuns.state(locked.schedule(), ScheduleRuns.achieved(locked.schedule(), locked.lastSuccess(), locked.now()));
            locked.rpo(rpo); // a new target is judged now, quietly: the events are for crossings, not for edits
            return locked.schedule();
        });
        align(changed.id(), !was.timing().equals(next.timing()));
        return view(changed);
    }

    public ScheduleView pause(String idOrName) {
        return update(idOrName, ScheduleUpdate.none().withPaused(true));
    }

    public ScheduleView resume(String idOrName) {
        return update(idOrName, ScheduleUpdate.none().withPaused(false));
    }

    /** Deletes the schedule and its events; its execution is cancelled, the jobs it started stay (and keep its id). */
    public void delete(String idOrName) {
        StoredSchedule schedule = require(idOrName);
        store.delete(schedule.id());
        cancel(schedule.id());
    }

    /** Events after {@code afterSeq}, oldest first; {@code afterSeq} below 0 means the newest {@code limit}. */
    public List<ScheduleEvent> events(String idOrName, long afterSeq, int limit) {
        StoredSchedule schedule = require(idOrName);
        long after = afterSeq >= 0 ? afterSeq : Math.max(0, store.lastEventSeq(schedule.id()) - limit);
        return store.events(schedule.id(), after, limit);
    }

    /** The RPO achieved now, in seconds, for the gauge; empty once the schedule is gone. */
    public Optional<Duration> rpoAchieved(String id) {
        return store.get(id).map(schedule -> ScheduleRuns.achieved(schedule, store.lastSuccess(id), durable.clock.instant()));
    }

    /** Checks every schedule now, as the periodic task does (tests, and a server that wants it at once); aligns their executions. */
    public void checkNow() {
        runs.checkAll();
        for (StoredSchedule schedule : store.list()) {
            try {
                align(schedule.id(), false);
            }
            catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "could not align the execution of schedule " + schedule.name() + ": " + e.getMessage());
            }
        }
    }

    @Override
    public void close() {
        runs.close();
    }

    /**
     * Makes the schedule's execution match its row: one while active (moved to the new time when {@code retime}), none
     * while paused, none once deleted. Under the row's lock, as the firing's completion decides: an execution picked
     * now is that firing's, whose completion is waiting for this lock and will read the row as it is now, so it is
     * left to it.
     */
    private void align(String id, boolean retime) {
        try {
            store.change(id, locked -> {
                StoredSchedule schedule = locked.schedule();
                TaskInstanceId instance = TaskInstanceId.of(ScheduleTask.NAME, id);
                Optional<ScheduledExecution<Object>> execution = scheduler.getScheduledExecution(instance);
                if (execution.filter(ScheduledExecution::isPicked).isPresent()) {
                    return null;
                }
                if (schedule.definition().paused()) {
                    execution.ifPresent(found -> cancel(id));
                    return null;
                }
                Instant now = durable.clock.instant();
                ScheduleTiming timing = schedule.definition().timing();
                Instant next = schedule.lastFired().map(fired -> timing.after(fired, now)).orElseGet(() -> timing.first(now));
                ScheduleFiring data = ScheduleFiring.of(schedule);
                if (execution.isEmpty()) {
                    scheduler.scheduleIfNotExists(task.instance(id, data), next);
                }
                else if (retime) {
                    try {
                        scheduler.reschedule(instance, next, data);
                    }
                    catch (RuntimeException e) {
                        // picked since it was read: that firing's completion reads the new timing under this lock
                    }
                }
                return null;
            });
        }
        catch (MoverException e) {
            if (e.category() != ErrorCategory.NOT_FOUND) {
                throw e;
            }
            cancel(id); // deleted meanwhile
        }
    }

    private void cancel(String id) {
        try {
            scheduler.cancel(TaskInstanceId.of(ScheduleTask.NAME, id));
        }
        catch (RuntimeException e) {
            // none, or picked since it was read: when that firing completes, it finds the schedule paused or gone and stops
        }
    }

    private ScheduleView view(StoredSchedule schedule) {
        Instant now = durable.clock.instant();
        Optional<JdbcScheduleStore.Run> success = store.lastSuccess(schedule.id());
        Duration achieved = ScheduleRuns.achieved(schedule, success, now);
        Optional<Instant> next = schedule.definition().paused() ? Optional.empty()
                : scheduler.getScheduledExecution(TaskInstanceId.of(ScheduleTask.NAME, schedule.id())).map(ScheduledExecution::getExecutionTime);
        return new ScheduleView(schedule, durable.specs.display(schedule.definition().templateJson(), false), next,
                schedule.lastJobId().flatMap(this::run), success.flatMap(run -> run(run.jobId())), achieved, ScheduleRuns.state(schedule, achieved));
    }

    private Optional<ScheduleView.Run> run(String jobId) {
        return durable.store.get(JobId.of(jobId)).map(SyncSchedules::run);
    }

    private static ScheduleView.Run run(StoredJob job) {
        return new ScheduleView.Run(job.id().value(), job.state(), job.started(), job.ended());
    }

    private Optional<StoredSchedule> lookup(String idOrName) {
        requireNonNull(idOrName, "idOrName is null");
        return store.get(idOrName).or(() -> store.byName(idOrName));
    }

    private StoredSchedule require(String idOrName) {
        return lookup(idOrName).orElseThrow(() -> new MoverException(ErrorCode.NOT_FOUND,
                "no schedule '" + idOrName + "'; list them with 'mover schedules list'"));
    }

    /** The template's stored JSON once it passed the checks of a job submission; the field at fault otherwise. */
    private String checkTemplate(JobSpec template) {
        if (template.kind() != JobKind.SYNC) {
            throw new InvalidScheduleException("template.kind", "a schedule runs sync jobs; got " + template.kind().name().toLowerCase());
        }
        scheme("template.source", template.source(), true);
        scheme("template.destination", template.destination(), false);
        JobId probe = JobId.random();
        try (PreparedJob checked = durable.prepare(probe, template, "schedule-check")) {
            requireNonNull(checked);
        }
        catch (InvalidScheduleException e) {
            throw e;
        }
        catch (MoverException e) {
            throw new InvalidScheduleException("template", e.getMessage());
        }
        finally {
            durable.deleteScratch(probe);
        }
        durable.specs.inlineSecretField(template).ifPresent(field -> {
            throw new InvalidScheduleException("template." + field, "a schedule keeps no secret given inline (it outlives the server's memory);"
                    + " put it in a named credential (mover.credentials.<name>.*) and give sourceCredential or destinationCredential");
        });
        return durable.specs.encode(template);
    }

    private void scheme(String field, String location, boolean source) {
        try {
            String scheme = EndpointUri.parse(location).scheme();
            if (source) {
                registry.source(scheme);
            }
            else {
                registry.sink(scheme);
            }
        }
        catch (MoverException e) {
            throw new InvalidScheduleException(field, e.getMessage());
        }
    }
}
