package io.mover.core.engine;

import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

import io.mover.spi.Entry;
import io.mover.spi.MoverException;
import io.mover.spi.RelativePath;
import io.mover.spi.Sink;

import static java.util.Objects.requireNonNull;

/**
 * A sync job inside its {@link TransferRun}, in phases: plan ({@link SyncPlan}: list both sides and
 * compare, spooling the changes), check (the delete guards, the prompt), delete (each file re-checked
 * first), set attributes, copy (through the run's per-file path), and once every copy has committed,
 * folder times deepest first. Deletes wait until the whole plan is known, so {@code --max-delete} and
 * the empty-source guard stop the job before anything is deleted. The walk is on one thread; copies on
 * the run's workers.
 */
final class SyncRun {
    private final TransferRun run;
    private final PreparedJob job;
    private volatile SyncPlan plan;

    SyncRun(TransferRun run) {
        this.run = requireNonNull(run, "run is null");
        this.job = run.job();
    }

    /** Plans, checks, deletes and starts the copies; the run waits for them, then calls {@link #finish()}. */
    void run() {
        plan = new SyncPlan(job, run.now(), new SyncPlan.Listener() {
            @Override
            public void sourceScanned(Entry entry) {
                run.outcomes().scanned(entry);
            }

            @Override
            public void unchanged(Entry entry) {
                run.outcomes().unchanged(entry);
            }

            @Override
            public void failed(RelativePath path, MoverException error) {
                run.outcomes().entryFailed(path, error);
            }
        });
        plan.plan(run::stopped, run.meter(Stage.ENUMERATE), run.meter(Stage.COMPARE));
        run.planned();
        if (run.stopped()) {
            return;
        }
        plan.checkGuards();
        boolean deleting = confirmDeletes();
        if (job.options().dryRun()) {
            if (deleting) {
                plan.deletes().forEach(entry -> run.listener().onDryRun("delete", entry.path().toString(), entry.size()));
            }
        }
        else {
            if (deleting) {
                deleteAll();
            }
            plan.attributes().forEach(this::setAttributes);
        }
        copyAll();
    }

    private boolean confirmDeletes() {
        SyncOptions options = job.options().sync();
        if (!options.deletesAllowed() || !plan.hasDeletes()) {
            return false;
        }
        if (options.deletes() == SyncOptions.DeleteMode.TRUE || job.options().dryRun()) {
            return true;
        }
        if (run.listener().confirmDeletes(plan.filesToDelete())) {
            return true;
        }
        plan.warn("deletes declined: " + plan.filesToDelete() + " files at the destination that the source does not have were kept");
        plan.deletesDeclined();
        return false;
    }

    /** Files before their folders (the plan's order); each re-checked, so what changed since it was listed is kept. */
    private void deleteAll() {
        Sink sink = run.sink();
        long deleted = 0;
        long changed = 0;
        for (Entry planned : plan.deletes()) {
            if (run.stopped()) {
                break;
            }
            try {
                switch (SyncPlan.deleteChecked(sink, planned)) {
                    case DELETED -> deleted += planned.isDirectory() ? 0 : 1;
                    case CHANGED -> changed++;
                    case GONE -> { }
                }
            }
            catch (MoverException e) {
                run.outcomes().entryFailed(planned.path(), e);
            }
        }
        plan.deleted(deleted, changed);
    }

    private void setAttributes(Entry entry) {
        try {
            run.sink().setAttributes(entry.path(), entry);
            plan.attributesUpdated();
        }
        catch (MoverException e) {
            run.outcomes().entryFailed(entry.path(), e);
        }
    }

    /** New folders are created in order; files go to the run's workers, as a crawled copy's do. */
    private void copyAll() {
        DirectoryNode parent = DirectoryNode.root(job.sourceRoot(), node -> {});
        Set<RelativePath> cleaned = new HashSet<>();
        Optional<Sink> sink = job.sink();
        try {
            for (Entry entry : plan.copies()) {
                if (run.stopped()) {
                    return;
                }
                try {
                    if (entry.isDirectory()) {
                        if (sink.isPresent() && sink.get().mkdirs(entry.path())) {
                            run.counters().directoriesCreated.increment();
                        }
                        cleaned.add(entry.path());
                        continue;
                    }
                    if (sink.isPresent() && cleaned.add(entry.path().parent())) {
                        sink.get().removeStaleTemporaries(entry.path().parent());
                    }
                }
                catch (MoverException e) {
                    run.outcomes().entryFailed(entry.path(), e);
                    continue;
                }
                if (entry.isFile()) {
                    run.schedule(new FileCopy(run, entry, entry.path(), parent));
                }
                else {
                    run.symlink(entry);
                }
            }
        }
        finally {
            parent.closed();
        }
    }

    /** After every copy has committed: folder times, deepest first, so writing into a folder cannot move its time again. */
    void finish() {
        SyncPlan current = plan;
        if (current == null) {
            return;
        }
        try (current) {
            if (job.sink().isPresent() && !run.stopped()) {
                for (Entry folder : current.directoryTimes()) {
                    try {
                        run.sink().setAttributes(folder.path(), folder);
                    }
                    catch (MoverException e) {
                        run.logWarning("could not set the modification time of folder " + folder.path() + ": " + e.getMessage());
                    }
                }
            }
        }
        catch (RuntimeException e) {
            run.logWarning("could not remove the sync's spool files: " + e.getMessage());
        }
    }

    /**
     * After the sink finished ({@link TransferRun}): the catalog is committed only now, when nothing failed and the
     * sink sent what it held back (a catalog kept before a failing finish would say files are there that never got there).
     */
    void endCatalog() {
        SyncPlan current = plan;
        if (current != null) {
            current.endCatalog(!run.stopped() && run.counters().filesFailed.sum() == 0);
        }
    }

    /** The counts so far; empty until the plan starts. */
    Optional<SyncReport> report() {
        return Optional.ofNullable(plan).map(SyncPlan::report);
    }
}
