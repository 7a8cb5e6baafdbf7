package io.mover.jobstore.service;

import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Supplier;

import io.mover.core.engine.JobListener;
import io.mover.core.engine.JobSpec;
import io.mover.core.engine.Progress;
import io.mover.core.service.JobId;
import io.mover.core.service.JobService;
import io.mover.core.service.JobView;
import io.mover.jobstore.JdbcScheduleStore;
import io.mover.jobstore.StoredJob;
import io.mover.jobstore.schedule.OverlapPolicy;
import io.mover.jobstore.schedule.RpoState;
import io.mover.jobstore.schedule.ScheduleEvent;
import io.mover.jobstore.schedule.StoredSchedule;
import io.mover.spi.ErrorCategory;
import io.mover.spi.MoverException;

/**
 * What a schedule does when it fires, when its run ends, and when its RPO crosses the target. Every decision is
 * made under the schedule's row lock ({@link JdbcScheduleStore#change}), so a firing, a queued run starting and the
 * periodic check never start two jobs for one firing, on one node or several.
 */
final class ScheduleRuns implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(ScheduleRuns.class.getName());

    private final Durable durable;
    private final JdbcScheduleStore store;
    private final Supplier<JobService> jobs;
    /** Job ends are handled off the progress thread: a queued run opens its endpoints when it starts. */
    private final ExecutorService reactions = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("mover-schedule-", 0).factory());

    ScheduleRuns(Durable durable, JdbcScheduleStore store, Supplier<JobService> jobs) {
        this.durable = durable;
        this.store = store;
        this.jobs = jobs;
    }

    /** A firing due at {@code due}: starts a job, or applies the overlap policy. The schedule as it is after, empty once deleted. */
    Optional<StoredSchedule> fire(String id) {
        try {
            return Optional.of(store.change(id, locked -> {
                StoredSchedule schedule = locked.schedule();
                if (schedule.definition().paused()) {
                    return schedule;
                }
                Optional<StoredJob> running = observeEnd(locked).filter(job -> !job.state().isTerminal());
                if (running.isEmpty()) {
                    start(locked);
                }
                else {
                    overlap(locked, running.get());
                }
                evaluate(locked);
                return locked.schedule();
            }));
        }
        catch (MoverException e) {
            if (e.category() == ErrorCategory.NOT_FOUND) {
                return Optional.empty(); // deleted while its execution was due
            }
            throw e;
        }
    }

    /** Records a run's end, starts the queued run, re-evaluates the RPO: after a job ends, and on the periodic check. */
    void reconcile(String id) {
        store.change(id, locked -> {
            Optional<StoredJob> last = observeEnd(locked);
            StoredSchedule schedule = locked.schedule();
            boolean running = last.filter(job -> !job.state().isTerminal()).isPresent();
            if (schedule.queued() && !running && !schedule.definition().paused()) {
                start(locked);
            }
            evaluate(locked);
            return null;
        });
    }

    /** Checks every schedule (the periodic task): one schedule's failure is logged and the others are still checked. */
    void checkAll() {
        for (StoredSchedule schedule : store.list()) {
            try {
                reconcile(schedule.id());
            }
            catch (MoverException e) {
                if (e.category() != ErrorCategory.NOT_FOUND) {
                    LOG.log(System.Logger.Level.WARNING, "could not check schedule " + schedule.name() + ": " + e.getMessage());
                }
            }
        }
    }

    /** Watches the job so that its end is handled at once rather than at the next periodic check. */
    void watch(String scheduleId, String jobId) {
        try {
            jobs.get().subscribe(JobId.of(jobId), new JobListener() {
                @Override
                public void onProgress(Progress progress) {
                    if (progress.state().isTerminal()) {
                        react(scheduleId);
                    }
                }
            });
        }
        catch (MoverException e) {
            // the job is gone (it was deleted): the periodic check sees that
            LOG.log(System.Logger.Level.DEBUG, "cannot watch job " + jobId + ": " + e.getMessage());
        }
    }

    private void react(String scheduleId) {
        try {
            reactions.execute(() -> {
                try {
                    reconcile(scheduleId);
                }
                catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, "schedule " + scheduleId + ": could not handle the end of its run (the periodic check retries): "
                            + e.getMessage());
                }
            });
        }
        catch (RejectedExecutionException e) {
            // closing: the next mover's periodic check handles it
        }
    }

    /** The schedule's last job; when it has ended and that was not recorded yet, a RUN_ENDED event. */
    private Optional<StoredJob> observeEnd(JdbcScheduleStore.Locked locked) throws SQLException {
        StoredSchedule schedule = locked.schedule();
        if (schedule.lastJobId().isEmpty()) {
            return Optional.empty();
        }
        Optional<StoredJob> job = durable.store.get(JobId.of(schedule.lastJobId().get()));
        if (!schedule.lastJobSeenEnd() && job.map(found -> found.state().isTerminal()).orElse(true)) {
            String state = job.map(found -> found.state().name() + found.error().map(error -> ": " + error.message()).orElse("")).orElse("gone");
            locked.event(ScheduleEvent.Kind.RUN_ENDED, schedule.lastJobId(), "job " + schedule.lastJobId().get() + " ended " + state);
            locked.sawEnd();
        }
        return job;
    }

    private void overlap(JdbcScheduleStore.Locked locked, StoredJob running) throws SQLException {
        StoredSchedule schedule = locked.schedule();
        Optional<String> jobId = Optional.of(running.id().value());
        if (schedule.definition().overlap() == OverlapPolicy.QUEUE_ONE && !schedule.queued()) {
            locked.queued(true);
            locked.event(ScheduleEvent.Kind.QUEUED, jobId, "job " + running.id() + " is still " + running.state()
                    + "; this firing starts when it ends (overlap queue-one)");
            watch(schedule.id(), running.id().value());
            return;
        }
        locked.skipped();
        String why = schedule.queued() ? "a run is already queued behind job " + running.id() : "job " + running.id() + " is still " + running.state()
                + " (overlap skip)";
        locked.event(ScheduleEvent.Kind.SKIPPED, jobId, "firing skipped: " + why);
        LOG.log(System.Logger.Level.INFO, "schedule " + schedule.name() + ": firing skipped: " + why);
    }

    private void start(JdbcScheduleStore.Locked locked) throws SQLException {
        StoredSchedule schedule = locked.schedule();
        JobView job;
        try {
            JobSpec spec = durable.specs.decode(schedule.definition().templateJson(), "of schedule " + schedule.name()).withScheduleId(schedule.id());
            job = jobs.get().submit(spec);
        }
        catch (MoverException e) {
            locked.submitFailed();
            locked.event(ScheduleEvent.Kind.SUBMIT_FAILED, Optional.empty(), "no run: " + e.getMessage());
            LOG.log(System.Logger.Level.WARNING, "schedule " + schedule.name() + ": could not start its sync: " + e.getMessage());
            return;
        }
        locked.fired(job.id().value());
        locked.event(ScheduleEvent.Kind.FIRED, Optional.of(job.id().value()), "started job " + job.id());
        watch(schedule.id(), job.id().value());
    }

    /** Compares the RPO achieved with the target; an event and a log line when the state changes. */
    private void evaluate(JdbcScheduleStore.Locked locked) throws SQLException {
        StoredSchedule schedule = locked.schedule();
        Optional<JdbcScheduleStore.Run> last = locked.lastSuccess();
        Instant now = locked.now();
        Duration achieved = achieved(schedule, last, now);
        RpoState state = state(schedule, achieved);
        if (state == schedule.rpoState()) {
            return;
        }
        locked.rpo(state);
        String target = schedule.definition().rpoTarget().map(Durations::text).orElse("none");
        String since = last.map(run -> "the last successful run (job " + run.jobId() + ") started at " + run.started())
                .orElse("no run has succeeded since the schedule was created at " + schedule.created());
        if (state == RpoState.RPO_EXCEEDED) {
            String message = "RPO exceeded: " + Durations.text(achieved) + " is over the target " + target + "; " + since;
            locked.event(ScheduleEvent.Kind.RPO_EXCEEDED, last.map(JdbcScheduleStore.Run::jobId), message);
            LOG.log(System.Logger.Level.WARNING, "schedule " + schedule.name() + ": " + message);
        }
        else if (state == RpoState.RPO_MET && schedule.rpoState() == RpoState.RPO_EXCEEDED) {
            String message = "RPO met again: " + Durations.text(achieved) + " is within the target " + target + "; " + since;
            locked.event(ScheduleEvent.Kind.RPO_MET, last.map(JdbcScheduleStore.Run::jobId), message);
            LOG.log(System.Logger.Level.INFO, "schedule " + schedule.name() + ": " + message);
        }
    }

    /** Now minus the start of the last successful run; before any run succeeded, minus the schedule's creation. */
    static Duration achieved(StoredSchedule schedule, Optional<JdbcScheduleStore.Run> last, Instant now) {
        Duration achieved = Duration.between(last.map(JdbcScheduleStore.Run::started).orElse(schedule.created()), now);
        return achieved.isNegative() ? Duration.ZERO : achieved;
    }

    static RpoState state(StoredSchedule schedule, Duration achieved) {
        Optional<Duration> target = schedule.definition().rpoTarget();
        if (target.isEmpty()) {
            return RpoState.NO_TARGET;
        }
        return achieved.compareTo(target.get()) > 0 ? RpoState.RPO_EXCEEDED : RpoState.RPO_MET;
    }

    @Override
    public void close() {
        reactions.shutdownNow();
    }
}
