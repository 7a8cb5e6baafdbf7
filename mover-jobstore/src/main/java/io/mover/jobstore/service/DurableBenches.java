package io.mover.jobstore.service;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import com.github.kagkarlsson.scheduler.task.CompletionHandler;
import com.github.kagkarlsson.scheduler.task.ExecutionContext;
import com.github.kagkarlsson.scheduler.task.Priority;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import com.github.kagkarlsson.scheduler.task.helper.CustomTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;

import io.mover.bench.Bench;
import io.mover.bench.BenchReport;
import io.mover.bench.BenchSettings;
import io.mover.bench.JsonReport;
import io.mover.bench.TransferSettings;
import io.mover.core.engine.CancellationToken;
import io.mover.core.engine.JobKind;
import io.mover.core.engine.JobPhase;
import io.mover.core.engine.JobSpec;
import io.mover.core.engine.JobState;
import io.mover.core.plugin.PluginRegistry;
import io.mover.core.service.JobId;
import io.mover.jobstore.DesiredState;
import io.mover.jobstore.JobError;
import io.mover.jobstore.NewJob;
import io.mover.jobstore.StoredJob;
import io.mover.spi.EndpointUri;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

/**
 * Bench jobs (kind BENCH, issue 8) on the durable store. A bench runs whole on one node, in one execution of
 * the bench task, and never beside another bench on that node (two would measure each other): an execution
 * that finds the node busy is rescheduled {@value #BUSY_RETRY_SECONDS} s later, so a waiting bench holds no
 * scheduler thread (and on a cluster may start on another node). It records its phase as it goes and its
 * report (JSON) when it succeeds. At most {@value #MAX_QUEUED} benches wait at once in the store.
 *
 * <p>A bench that was running when its mover stopped or died is not run again: it ends FAILED with code
 * CANCELLED and a reason saying it was interrupted. A bench loads its target, and starting it again
 * unattended, at another time (after a restart, perhaps in working hours), would surprise its operator; a
 * partial measurement is not reported either. Benches still queued run after a restart.
 */
final class DurableBenches implements AutoCloseable {
    static final String TASK = "mover-bench";
    static final int MAX_QUEUED = 8;
    static final int BUSY_RETRY_SECONDS = 2;
    private static final System.Logger LOG = System.getLogger(DurableBenches.class.getName());

    final CustomTask<Void> task;
    private final Durable durable;
    private final ProgressHub progress;
    private final PluginRegistry registry;
    /** One bench at a time on this node. */
    private final AtomicBoolean busy = new AtomicBoolean();
    private final Map<JobId, CancellationToken> running = new ConcurrentHashMap<>();
    /** Sees cancels asked on other nodes (the store's desired state) while a bench runs here. */
    private final ScheduledExecutorService watcher = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("mover-bench-cancel").factory());

    DurableBenches(Durable durable, PluginRegistry registry, ProgressHub progress) {
        this.durable = durable;
        this.registry = registry;
        this.progress = progress;
        // after units and drivers: a bench waits for the transfers already started rather than measuring beside them
        this.task = Tasks.custom(TASK, Void.class).defaultPriority(Priority.LOW).onDeadExecutionRevive().execute(this::execute);
        watcher.scheduleWithFixedDelay(this::watchCancels, 1, 1, TimeUnit.SECONDS);
    }

    /**
     * Checks the bench (every user error before the job exists: options, the target's scheme and plugin
     * settings) and stores it QUEUED; the caller schedules it. THROTTLED when {@value #MAX_QUEUED} wait already.
     */
    synchronized StoredJob create(JobId id, JobSpec spec) {
        BenchSettings settings = BenchSettings.of(spec);
        EndpointUri target = EndpointUri.parse(settings.target());
        registry.sink(target.scheme()).configSpec().parse(settings.targetConfig());
        if (settings instanceof TransferSettings && registry.findSource("gen").isEmpty()) {
            throw new MoverException(ErrorCode.UNSUPPORTED, "a transfer bench needs the gen plugin (gen://) for its data; install mover-plugin-gen");
        }
        int queued = durable.store.list(Optional.of(JobState.QUEUED), Optional.of(JobKind.BENCH), 0, MAX_QUEUED).size();
        if (queued >= MAX_QUEUED) {
            throw new MoverException(ErrorCode.THROTTLED, MAX_QUEUED + " benches are queued already (a node runs one at a time): wait for one "
                    + "to start (GET /api/v1/jobs?kind=bench&state=queued) and submit again");
        }
        return durable.store.create(new NewJob(id, JobKind.BENCH, durable.specs.encode(spec)));
    }

    /** Asks the bench to stop at its next operation, when it runs on this node (other nodes see the store's desired state). */
    void cancel(JobId id) {
        Optional.ofNullable(running.get(id)).ifPresent(CancellationToken::cancel);
    }

    private CompletionHandler<Void> execute(TaskInstance<Void> instance, ExecutionContext context) {
        JobId id = JobId.of(instance.getId());
        Optional<StoredJob> found = durable.store.get(id);
        if (found.isEmpty() || found.get().state().isTerminal()) {
            return new CompletionHandler.OnCompleteRemove<>();
        }
        StoredJob job = found.get();
        if (job.desiredState() == DesiredState.CANCELLED) {
            end(id, JobState.CANCELLED, Optional.empty());
            return new CompletionHandler.OnCompleteRemove<>();
        }
        if (job.state() == JobState.RUNNING) {
            // only the execution that started it ends it: this one runs again after its mover stopped or died
            end(id, JobState.FAILED, Optional.of(interrupted(job, "stopped or died")));
            return new CompletionHandler.OnCompleteRemove<>();
        }
        if (durable.stopping || !busy.compareAndSet(false, true)) {
            return (complete, operations) -> operations.reschedule(complete, durable.clock.instant().plusSeconds(BUSY_RETRY_SECONDS));
        }
        try {
            run(job);
        }
        finally {
            busy.set(false);
        }
        return new CompletionHandler.OnCompleteRemove<>();
    }

    private void run(StoredJob job) {
        JobId id = job.id();
        CancellationToken cancellation = new CancellationToken();
        running.put(id, cancellation);
        Path scratch = durable.scratchRoot.resolve(id.key()).resolve("bench");
        AtomicReference<JobPhase> last = new AtomicReference<>(new JobPhase("starting", 0, 1));
        try {
            BenchSettings settings = BenchSettings.of(durable.spec(job)); // fails when its inline secrets were lost in a restart
            durable.store.transition(id, JobState.RUNNING, Optional.empty());
            durable.changed(id);
            Files.createDirectories(scratch);
            BenchReport report = Bench.run(registry, durable.clock, scratch, settings, (description, step, steps) -> {
                last.set(new JobPhase(description, step, steps));
                LOG.log(System.Logger.Level.INFO, "bench {0}: {1}", id, description);
                durable.store.recordPhase(id, last.get());
                durable.changed(id);
            }, cancellation);
            if (cancellation.isCancelled()) {
                stopped(job);
                return;
            }
            durable.store.recordReport(id, JsonReport.of(report));
            durable.store.recordPhase(id, new JobPhase("done", last.get().steps(), last.get().steps()));
            end(id, JobState.SUCCEEDED, Optional.empty());
        }
        catch (MoverException e) {
            if (cancellation.isCancelled()) {
                stopped(job);
                return;
            }
            end(id, JobState.FAILED, Optional.of(new JobError(e.code().name(), e.getMessage())));
        }
        catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "bench " + id + " failed", e);
            end(id, JobState.FAILED, Optional.of(new JobError(ErrorCode.INTERNAL.name(), "unexpected error: " + e)));
        }
        finally {
            running.remove(id);
            durable.deleteScratch(id);
            durable.forget(id);
        }
    }

    /** Cancelled by the user, or interrupted because this mover is stopping (its files are removed either way). */
    private void stopped(StoredJob job) {
        if (durable.stopping) {
            end(job.id(), JobState.FAILED, Optional.of(interrupted(job, "stopped")));
            return;
        }
        end(job.id(), JobState.CANCELLED, Optional.empty());
    }

    private static JobError interrupted(StoredJob job, String how) {
        return new JobError(ErrorCode.CANCELLED.name(), "interrupted: the mover running this bench " + how + " before it ended; a bench is "
                + "not started again unattended (it loads its target), and files a killed run wrote may remain in its run-* folder "
                + "under the bench folder: submit it again");
    }

    private void end(JobId id, JobState state, Optional<JobError> error) {
        durable.store.transition(id, state, error);
        durable.changed(id);
        progress.ended(id);
    }

    private void watchCancels() {
        for (Map.Entry<JobId, CancellationToken> bench : running.entrySet()) {
            try {
                durable.store.get(bench.getKey()).filter(job -> job.desiredState() == DesiredState.CANCELLED)
                        .ifPresent(job -> bench.getValue().cancel());
            }
            catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "could not read the desired state of bench " + bench.getKey() + ": " + e.getMessage());
            }
        }
    }

    /** Stops the benches running here at their next operation (they end FAILED, interrupted, their files removed). */
    @Override
    public void close() {
        watcher.shutdownNow();
        running.values().forEach(CancellationToken::cancel);
    }
}
