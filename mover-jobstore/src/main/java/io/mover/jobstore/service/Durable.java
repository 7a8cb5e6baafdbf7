package io.mover.jobstore.service;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import com.github.kagkarlsson.scheduler.task.helper.CustomTask;

import io.mover.core.engine.JobControls;
import io.mover.core.engine.JobSpec;
import io.mover.core.engine.PreparedJob;
import io.mover.core.engine.TransferEngine;
import io.mover.core.service.JobId;
import io.mover.core.service.ScratchSpace;
import io.mover.jobstore.JobStore;
import io.mover.jobstore.StoredJob;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

/**
 * What the driver, the unit tasks and the service of one node share: the store, the engine, the
 * scheduler, and the in-memory part of jobs (specs holding inline secrets, live controls).
 */
final class Durable {
    static final String DRIVER = "mover-driver";
    static final String UNIT = "mover-unit";
    private static final System.Logger LOG = System.getLogger(Durable.class.getName());

    final JobStore store;
    final TransferEngine engine;
    final StoredSpec specs;
    final String nodeId;
    final Path scratchRoot;
    final Clock clock;
    /** Specs as submitted to this node, secrets included; the store has them without. */
    private final Map<JobId, JobSpec> submitted = new ConcurrentHashMap<>();
    /** Per job, this node's concurrency, bandwidth cap and pause, shared by the job's units running here. */
    private final Map<JobId, JobControls> controls = new ConcurrentHashMap<>();
    private volatile SchedulerClient scheduler;
    private volatile CustomTask<Void> driverTask;
    private volatile CustomTask<Void> unitTask;
    /** Stored jobs as callers see them; stateless but for this, so one serves the node. */
    final Views views;
    /** Views that pollers read, kept for a moment (see {@link ViewCache}). */
    final ViewCache viewCache;
    /** Unit attempts this node began, and those that continued an earlier attempt (for metrics). */
    final LongAdder unitsClaimed = new LongAdder();
    final LongAdder unitsRevived = new LongAdder();
    /** Set by {@link DurableJobService#close()}: work stops at a file boundary and is rescheduled. */
    volatile boolean stopping;

    Durable(JobStore store, TransferEngine engine, StoredSpec specs, String nodeId, Path scratchRoot, Clock clock) {
        this.store = store;
        this.engine = engine;
        this.specs = specs;
        this.nodeId = nodeId;
        this.scratchRoot = scratchRoot;
        this.clock = clock;
        this.views = new Views(this);
        this.viewCache = new ViewCache(id -> store.get(id).map(views::view));
    }

    void wire(SchedulerClient scheduler, CustomTask<Void> driverTask, CustomTask<Void> unitTask) {
        this.scheduler = scheduler;
        this.driverTask = driverTask;
        this.unitTask = unitTask;
    }

    void remember(JobId id, JobSpec spec) {
        submitted.put(id, spec);
    }

    void forget(JobId id) {
        submitted.remove(id);
        controls.remove(id);
        viewCache.invalidate(id);
    }

    /** This node changed the job's state or settings: its cached view is stale. */
    void changed(JobId id) {
        viewCache.invalidate(id);
    }

    /** The stored job; NOT_FOUND, naming how to list jobs, when there is none. */
    StoredJob find(JobId id) {
        return store.get(id).orElseThrow(() -> new MoverException(ErrorCode.NOT_FOUND, "no job " + id + "; list jobs with 'mover jobs list'"));
    }

    /** The spec to run: as submitted here, else from the store (fails when its inline secrets are gone). */
    JobSpec spec(StoredJob job) {
        JobSpec spec = submitted.get(job.id());
        return spec != null ? spec : specs.decode(job.specJson(), job.id().value());
    }

    /** The spec to show: never needs secrets. */
    JobSpec shownSpec(StoredJob job) {
        JobSpec spec = submitted.get(job.id());
        return spec != null ? spec : specs.display(job.specJson(), false);
    }

    /** This node's controls of the job, created paused when the user has paused it. */
    JobControls controls(StoredJob job, JobSpec spec) {
        return controls.computeIfAbsent(job.id(), key -> {
            JobControls created = JobControls.of(spec.options());
            if (job.desiredState() == io.mover.jobstore.DesiredState.PAUSED) {
                created.pause();
            }
            return created;
        });
    }

    Optional<JobControls> controls(JobId id) {
        return Optional.ofNullable(controls.get(id));
    }

    /** Opens the job's endpoints with the job id as the sink's key, stable across restarts: a crashed attempt's temporaries are found. */
    PreparedJob prepare(JobId id, JobSpec spec, String purpose) {
        return prepare(id, spec, purpose, true);
    }

    /** As {@link #prepare(JobId, JobSpec, String)}; without {@code openSink} the destination is checked, not opened. */
    PreparedJob prepare(JobId id, JobSpec spec, String purpose, boolean openSink) {
        Path scratch = scratchRoot.resolve(id.key()).resolve(purpose);
        try {
            Files.createDirectories(scratch);
        }
        catch (IOException e) {
            throw new MoverException(ErrorCode.IO_ERROR, "cannot create the scratch directory " + scratch + ": " + e.getMessage(), e);
        }
        return engine.prepare(spec, id.value(), scratch, openSink);
    }

    void scheduleDriver(JobId id) {
        scheduler.scheduleIfNotExists(driverTask.instance(id.value()), clock.instant());
    }

    /** Schedules {@code task} for the job now, unless it is scheduled already (a bench's). */
    void schedule(CustomTask<Void> task, JobId id) {
        scheduler.scheduleIfNotExists(task.instance(id.value()), clock.instant());
    }

    void scheduleUnit(JobId id, long seq) {
        scheduler.scheduleIfNotExists(unitTask.instance(id.value() + ":" + seq), clock.instant());
    }

    static JobId jobOf(TaskInstance<?> instance) {
        String id = instance.getId();
        int colon = id.indexOf(':');
        return JobId.of(colon < 0 ? id : id.substring(0, colon));
    }

    static long seqOf(TaskInstance<?> instance) {
        String id = instance.getId();
        return Long.parseLong(id.substring(id.indexOf(':') + 1));
    }

    void deleteScratch(JobId id, String purpose) {
        ScratchSpace.delete(scratchRoot.resolve(id.key()).resolve(purpose));
    }

    void deleteScratch(JobId id) {
        ScratchSpace.delete(scratchRoot.resolve(id.key()));
    }
}
