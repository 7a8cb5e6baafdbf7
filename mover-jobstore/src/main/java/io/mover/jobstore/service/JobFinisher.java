package io.mover.jobstore.service;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

import io.mover.core.engine.JobSpec;
import io.mover.core.engine.JobState;
import io.mover.core.engine.PreparedJob;
import io.mover.core.service.JobId;
import io.mover.jobstore.DesiredState;
import io.mover.jobstore.JobError;
import io.mover.jobstore.StoredJob;
import io.mover.spi.Entry;
import io.mover.spi.MoverException;
import io.mover.spi.Sink;

/**
 * Ends a job once its enumeration is done and every unit has committed: sets folder times (only now, as
 * writing a file into a folder changes its time), then moves it to its terminal state. Whoever commits the
 * last unit (or the driver, when units finished first) calls it; two callers at once are harmless: the
 * times are set twice, and {@code transition} lets only the first terminal state through.
 */
final class JobFinisher {
    private static final System.Logger LOG = System.getLogger(JobFinisher.class.getName());

    private final Durable durable;
    private final ProgressHub progress;

    JobFinisher(Durable durable, ProgressHub progress) {
        this.durable = durable;
        this.progress = progress;
    }

    void finishIfDone(JobId id) {
        Optional<StoredJob> found = durable.store.get(id);
        if (found.isEmpty()) {
            return;
        }
        StoredJob job = found.get();
        if (job.state().isTerminal() || !job.enumerationDone() || job.totals().unitsDone() < job.totals().unitsTotal()) {
            return;
        }
        JobState end;
        if (job.desiredState() == DesiredState.CANCELLED) {
            end = JobState.CANCELLED;
        }
        else {
            end = job.totals().filesFailed() > 0 ? JobState.COMPLETED_WITH_ERRORS : JobState.SUCCEEDED;
            setFolderTimes(job);
        }
        boolean ended = durable.store.transition(id, end, Optional.empty());
        if (ended) {
            LOG.log(System.Logger.Level.INFO, "job {0} ended {1}", id, end);
            endCatalog(job, end == JobState.SUCCEEDED);
        }
        durable.forget(id);
        durable.deleteScratch(id);
        if (ended) {
            // after forget: the subscribers read the job's view, which must not be the cached one of a running job
            progress.ended(id);
        }
    }

    void fail(JobId id, JobError error) {
        boolean ended = durable.store.transition(id, JobState.FAILED, Optional.of(error));
        if (ended) {
            LOG.log(System.Logger.Level.WARNING, "job {0} failed: {1}", id, error.message());
            durable.store.get(id).ifPresent(job -> endCatalog(job, false));
        }
        durable.forget(id);
        durable.deleteScratch(id);
        if (ended) {
            progress.ended(id);
        }
    }

    /**
     * A sync with {@code --catalog}: its driver recorded the destination as the plan leaves it; a success makes that the
     * catalog, anything else drops the catalog. A dry run recorded nothing and leaves it alone. The record is on the disk
     * of the node that drove the job: on another node there is none, and the catalog there is dropped.
     */
    private void endCatalog(StoredJob job, boolean succeeded) {
        JobSpec spec = durable.shownSpec(job);
        if (spec.options().dryRun()) {
            return;
        }
        try {
            durable.engine.catalog(spec, job.id().value()).ifPresent(catalog -> {
                if (succeeded) {
                    catalog.commit();
                }
                else {
                    catalog.invalidate();
                }
            });
        }
        catch (MoverException e) {
            LOG.log(System.Logger.Level.WARNING, "job {0}: {1}", job.id(), e.getMessage());
        }
    }

    /** Deepest folders first, so a parent's time is set after its children's changed it. */
    @SuppressWarnings("try")   // EndpointCounters records the requests of setting the times as it closes, before the endpoints do
    private void setFolderTimes(StoredJob job) {
        JobSpec spec;
        try {
            spec = durable.spec(job);
        }
        catch (MoverException e) {
            return; // the job cannot open its endpoints any more; its files are all recorded
        }
        if (spec.options().dryRun() || durable.engine.singleStream(spec)) {
            return; // a single stream's unit wrote its folders into the stream; opening it again would start a second archive
        }
        List<Entry> folders = new ArrayList<>();
        for (long seq = 0; seq < job.totals().unitsTotal(); seq++) {
            // a sync's delete units list what is gone: no time to set there
            durable.store.manifest(job.id(), seq).filter(manifest -> !Manifests.isDeletes(manifest)).map(Manifests::decode).orElse(List.of()).stream()
                    .filter(Entry::isDirectory).forEach(folders::add);
        }
        if (folders.isEmpty()) {
            return; // nothing to set: the endpoints are not opened again (a no-change sync's tail, before its end is sent)
        }
        folders.sort(Comparator.comparing((Entry e) -> e.path().depth()).reversed());
        try (PreparedJob prepared = durable.prepare(job.id(), spec, "finish"); EndpointCounters counted = new EndpointCounters(durable, job.id(), prepared)) {
            Sink sink = prepared.sink().orElseThrow();
            for (Entry folder : folders) {
                try {
                    sink.setAttributes(folder.path(), folder);
                }
                catch (MoverException e) {
                    LOG.log(System.Logger.Level.WARNING, "could not set the modification time of directory " + folder.path() + ": " + e.getMessage());
                }
            }
        }
        catch (MoverException e) {
            LOG.log(System.Logger.Level.WARNING, "could not set folder times of job " + job.id() + ": " + e.getMessage());
        }
    }
}
