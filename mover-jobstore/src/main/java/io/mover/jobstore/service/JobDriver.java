package io.mover.jobstore.service;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import com.github.kagkarlsson.scheduler.task.CompletionHandler;
import com.github.kagkarlsson.scheduler.task.ExecutionContext;
import com.github.kagkarlsson.scheduler.task.TaskInstance;

import io.mover.core.engine.JobSpec;
import io.mover.core.engine.JobState;
import io.mover.core.engine.PathFilter;
import io.mover.core.engine.PreparedJob;
import io.mover.core.engine.TransferOptions;
import io.mover.core.service.JobId;
import io.mover.jobstore.DesiredState;
import io.mover.jobstore.JobError;
import io.mover.jobstore.NewUnit;
import io.mover.jobstore.StoredJob;
import io.mover.spi.Entry;
import io.mover.spi.MoverException;
import io.mover.spi.RelativePath;
import io.mover.spi.Source;

/**
 * The driver task of a job: crawls the source in a deterministic order (each directory's listing sorted
 * by name, so only one directory's listing is ever held), cuts units and schedules one unit task each.
 *
 * <p>Run again after a crash, it resumes after the last stored unit: seqs are contiguous from 0, so that
 * unit is {@code unitsTotal - 1}, its manifest's last path is where the crawl stopped cutting, and the same
 * deterministic crawl skips everything up to it. Entries crawled after that unit but not yet cut were never
 * stored, and are crawled again. Units already stored are scheduled again if absent (a crash between
 * {@code addUnits} and scheduling); scheduling is "if not exists", so this is harmless otherwise.
 *
 * <p>A job whose destination is one sequential stream (a plain tar) is not crawled here: it is one unit without a
 * manifest, which crawls the source itself as it sends.
 */
final class JobDriver {
    private final Durable durable;
    private final JobFinisher finisher;
    private final int maxEntries;
    private final long maxBytes;

    JobDriver(Durable durable, JobFinisher finisher, int maxEntries, long maxBytes) {
        this.durable = durable;
        this.finisher = finisher;
        this.maxEntries = maxEntries;
        this.maxBytes = maxBytes;
    }

    @SuppressWarnings("try")   // EndpointCounters records the listing's plugin counters as it closes, before the endpoints do
    CompletionHandler<Void> execute(TaskInstance<Void> instance, ExecutionContext context) {
        JobId id = Durable.jobOf(instance);
        Optional<StoredJob> found = durable.store.get(id);
        if (found.isEmpty() || found.get().state().isTerminal()) {
            return new CompletionHandler.OnCompleteRemove<>();
        }
        StoredJob job = found.get();
        long firstSeq = job.totals().unitsTotal();
        for (io.mover.jobstore.UnitInfo unit : durable.store.unfinishedUnits(id)) {
            durable.scheduleUnit(id, unit.seq());
        }
        if (!job.enumerationDone()) {
            PreparedJob prepared;
            boolean singleStream;
            try {
                JobSpec spec = durable.spec(job);
                // a single stream (plain tar) is one unit on one connection: crawl nothing, and leave the stream to the unit.
                // Only a sync's driver writes to the destination (it lists it, deletes, sets attributes); a copy's crawls
                // the source alone, so its destination is checked, not opened: opening a tcp:// one is a link of its own
                // (connections and handshakes, tens of ms on loopback, round trips on a WAN) that no unit would use
                singleStream = durable.engine.singleStream(spec);
                prepared = durable.prepare(id, spec, "driver", !singleStream && job.kind() == io.mover.core.engine.JobKind.SYNC);
            }
            catch (MoverException e) {
                if (e.isRetryable()) {
                    throw e; // db-scheduler runs the driver again a little later
                }
                finisher.fail(id, new JobError(e.code().name(), e.getMessage()));
                return new CompletionHandler.OnCompleteRemove<>();
            }
            try (prepared; EndpointCounters counted = new EndpointCounters(durable, id, prepared)) {
                durable.store.transition(id, JobState.RUNNING, Optional.empty());
                durable.changed(id);
                Optional<RelativePath> after = firstSeq == 0 || singleStream ? Optional.empty()
                        : durable.store.manifest(id, firstSeq - 1).map(Manifests::decode).map(entries -> entries.getLast().path());
                UnitCutter cutter = new UnitCutter(firstSeq, maxEntries, maxBytes, unit -> add(id, unit));
                boolean crawled;
                try {
                    if (singleStream) {
                        // one unit, with no manifest: it crawls the source as it sends, so the job's entries are never
                        // held at once (a tar of a million files would otherwise be one million-entry list, in memory
                        // here, in the store, and again in the unit); it records the totals as its crawl finds them
                        if (firstSeq == 0) {
                            add(id, new NewUnit(0, 0, 0, Manifests.encode(List.of())));
                        }
                        crawled = true;
                    }
                    else if (job.kind() == io.mover.core.engine.JobKind.SYNC) {
                        Crawl checks = new Crawl(id, prepared, cutter, after, context);
                        crawled = new SyncDriver(durable).drive(id, prepared, firstSeq, cutter, checks::nodeStopping, checks::jobCancelled);
                    }
                    else {
                        crawled = new Crawl(id, prepared, cutter, after, context).run();
                    }
                }
                catch (MoverException e) {
                    if (e.isRetryable()) {
                        throw e; // run again later: it resumes after the last stored unit
                    }
                    // a folder that cannot be listed would leave its files out unnoticed: the job fails saying which
                    finisher.fail(id, new JobError(e.code().name(), e.getMessage()));
                    return new CompletionHandler.OnCompleteRemove<>();
                }
                if (!crawled) {
                    // the node is stopping: what is cut is stored; the next run resumes after it
                    return (complete, operations) -> operations.reschedule(complete, Instant.now());
                }
                cutter.flush();
            }
            finally {
                durable.deleteScratch(id);
            }
            durable.store.markEnumerationDone(id);
        }
        finisher.finishIfDone(id);
        return new CompletionHandler.OnCompleteRemove<>();
    }

    private void add(JobId id, NewUnit unit) {
        if (durable.store.addUnits(id, List.of(unit)) > 0) {
            durable.store.addScanned(id, unit.fileCount(), unit.byteCount());
        }
        durable.scheduleUnit(id, unit.seq());
    }

    /** One crawl: depth first, sorted, skipping what precedes {@code after}. */
    private final class Crawl {
        private final JobId id;
        private final PreparedJob job;
        private final UnitCutter cutter;
        private final Optional<RelativePath> after;
        private final ExecutionContext context;
        private final PathFilter filter;
        private long lastCheck;
        private boolean cancelled;

        Crawl(JobId id, PreparedJob job, UnitCutter cutter, Optional<RelativePath> after, ExecutionContext context) {
            this.id = id;
            this.job = job;
            this.cutter = cutter;
            this.after = after;
            this.context = context;
            TransferOptions options = job.options();
            this.filter = new PathFilter(options.includes(), options.excludes());
        }

        /** False when the node is stopping (the crawl is incomplete); true when done or the job was cancelled. */
        boolean run() {
            Entry root = job.sourceRoot();
            if (root.isFile()) {
                if (after.isEmpty() && filter.includesFile(job.rootTarget())) {
                    cutter.add(root);
                }
                return true;
            }
            if (after.isEmpty()) {
                cutter.add(root);
            }
            return crawl(job.source(), RelativePath.ROOT);
        }

        private boolean crawl(Source source, RelativePath directory) {
            List<Entry> listing;
            try (Stream<Entry> entries = source.list(directory)) {
                listing = new ArrayList<>(entries.toList());
            }
            listing.sort(Comparator.comparing(entry -> entry.path().name()));
            for (Entry entry : listing) {
                if (nodeStopping()) {
                    return false;
                }
                if (jobCancelled()) {
                    return true;
                }
                RelativePath path = entry.path();
                boolean ancestorOfResume = after.isPresent() && after.get().startsWith(path) && !after.get().equals(path);
                boolean done = after.isPresent() && path.compareTo(after.get()) <= 0;
                switch (entry.type()) {
                    case DIRECTORY -> {
                        if (!filter.entersDirectory(path) || (done && !ancestorOfResume && !after.get().equals(path))) {
                            continue;
                        }
                        if (!done) {
                            cutter.add(entry);
                        }
                        if (!crawl(source, path)) {
                            return false;
                        }
                    }
                    case FILE, SYMLINK -> {
                        if (!done && filter.includesFile(path)) {
                            cutter.add(entry);
                        }
                    }
                    default -> { } // neither file, directory nor link: skipped, as a crawled job does
                }
            }
            return true;
        }

        private boolean nodeStopping() {
            return durable.stopping || context.getSchedulerState().isShuttingDown();
        }

        /** A cancelled job stops cutting; its desired state is read at most once a second. */
        private boolean jobCancelled() {
            long now = System.nanoTime();
            if (now - lastCheck > 1_000_000_000L) {
                lastCheck = now;
                cancelled = durable.store.get(id).map(j -> j.desiredState() == DesiredState.CANCELLED).orElse(true);
            }
            return cancelled;
        }
    }
}
