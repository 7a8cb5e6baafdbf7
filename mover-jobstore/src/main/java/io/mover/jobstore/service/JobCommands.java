package io.mover.jobstore.service;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.mover.core.engine.JobControls;
import io.mover.core.engine.JobKind;
import io.mover.core.engine.JobListener;
import io.mover.core.engine.JobSpec;
import io.mover.core.engine.JobState;
import io.mover.core.engine.PluginCounterSampler;
import io.mover.core.engine.PreparedJob;
import io.mover.core.service.JobEndedException;
import io.mover.core.service.JobId;
import io.mover.core.service.JobUpdate;
import io.mover.core.service.JobView;
import io.mover.jobstore.DesiredState;
import io.mover.jobstore.NewJob;
import io.mover.jobstore.StoredJob;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

import static java.util.Objects.requireNonNull;

/**
 * The write side of {@link DurableJobService}: submitting a job (checked, stored, its driver or bench task scheduled) and
 * controlling it (cancel, pause, resume, settings), each stored as the job's desired state and applied at once to the units
 * running on this node.
 */
final class JobCommands {
    private final Durable durable;
    private final DurableBenches benches;
    private final ProgressHub progress;

    JobCommands(Durable durable, DurableBenches benches, ProgressHub progress) {
        this.durable = requireNonNull(durable, "durable is null");
        this.benches = requireNonNull(benches, "benches is null");
        this.progress = requireNonNull(progress, "progress is null");
    }

    JobView submit(JobSpec spec, JobListener listener) {
        requireNonNull(spec, "spec is null");
        requireNonNull(listener, "listener is null");
        JobId id = JobId.random();
        StoredJob job;
        if (spec.kind() == JobKind.BENCH) {
            job = benches.create(id, spec);
        }
        else {
            // every user error surfaces here, before the job exists; the endpoints are opened again to run. A single
            // stream (a plain tar to nc) is checked without opening it: its receiver takes one connection, the run's
            Map<String, Long> checkCounters;
            try (PreparedJob checked = durable.prepare(id, spec, "submit", !durable.engine.singleStream(spec))) {
                checkCounters = new PluginCounterSampler(checked.source(), checked.sink()).sample();
            }
            finally {
                durable.deleteScratch(id);
            }
            job = durable.store.create(new NewJob(id, spec.kind(), durable.specs.encode(spec), spec.scheduleId()));
            EndpointCounters.add(durable, id, checkCounters); // the check's requests are the job's too
        }
        durable.remember(id, spec);
        if (listener != JobListener.NONE) {
            progress.subscribe(id, listener);
        }
        schedule(job);
        return durable.views.view(job);
    }

    JobView cancel(JobId id) {
        durable.find(id);
        durable.store.setDesiredState(id, DesiredState.CANCELLED);
        benches.cancel(id);
        durable.changed(id);
        return durable.views.view(durable.find(id));
    }

    JobView pause(JobId id) {
        StoredJob job = live(id, "pause");
        durable.store.setDesiredState(id, DesiredState.PAUSED);
        durable.changed(id);
        durable.controls(job, durable.shownSpec(job)).pause();
        return durable.views.view(durable.find(id));
    }

    JobView resume(JobId id) {
        live(id, "resume");
        durable.store.setDesiredState(id, DesiredState.RUNNING);
        durable.changed(id);
        durable.controls(id).ifPresent(JobControls::resume);
        return durable.views.view(durable.find(id));
    }

    /**
     * Applies to the units running on this node at once, and is stored with the job: it holds after a restart, and
     * on other nodes from the first unit they run after it (units already running there keep their limits).
     */
    JobView update(JobId id, JobUpdate update) {
        requireNonNull(update, "update is null");
        update.check();
        StoredJob job = live(id, "update");
        update.applyTo(durable.controls(job, durable.shownSpec(job)));
        if (!durable.store.updateSpec(id, StoredSpec.updated(job.specJson(), update))) {
            throw new JobEndedException(id, durable.find(id).state(), "update");
        }
        durable.changed(id);
        return durable.views.view(durable.find(id));
    }

    /** Jobs not ended get their driver (a bench its task) back if a crash came between creating and scheduling it (scheduling is "if absent"). */
    void rescheduleUnfinished() {
        for (JobState state : List.of(JobState.QUEUED, JobState.RUNNING)) {
            for (StoredJob job : durable.store.list(Optional.of(state), 0, Integer.MAX_VALUE)) {
                schedule(job);
            }
        }
    }

    private StoredJob live(JobId id, String action) {
        StoredJob job = durable.find(id);
        if (job.state().isTerminal()) {
            throw new JobEndedException(id, job.state(), action);
        }
        if (job.kind() == JobKind.BENCH) {
            throw new MoverException(ErrorCode.UNSUPPORTED, "a bench cannot " + action + ": it measures with the settings it was given; cancel it "
                    + "and submit it again");
        }
        return job;
    }

    /** A bench's one task, or a transfer's driver. */
    private void schedule(StoredJob job) {
        if (job.kind() == JobKind.BENCH) {
            durable.schedule(benches.task, job.id());
            return;
        }
        durable.scheduleDriver(job.id());
    }
}
