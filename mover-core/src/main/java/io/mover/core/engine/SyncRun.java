package io.mover.core.engine;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import java.util.stream.Stream;

import io.mover.spi.Entry;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.RelativePath;
import io.mover.spi.Sink;
import io.mover.spi.Source;

import static java.util.Objects.requireNonNull;

/**
 * A sync job inside its {@link TransferRun}, in phases: plan (list both sides and compare, spooling
 * the changes), check (the delete guards, the prompt), delete (each file re-checked first), set
 * attributes, copy (through the run's per-file path), and once every copy has committed, folder times
 * deepest first. Deletes wait until the whole plan is known, so {@code --max-delete} and the
 * empty-source guard stop the job before anything is deleted. The walk is on one thread; copies on
 * the run's workers.
 */
final class SyncRun implements SyncPlanner.Actions {
    /** Listings of both sides fetched at once (each a blocking walk of one folder). */
    static final int LISTERS = 8;
    /** Entries of one folder's listing held in the heap before it is sorted on disk. */
    static final int SPILL_AT = 16_384;

    private final TransferRun run;
    private final PreparedJob job;
    private final SyncOptions options;
    private final Path scratch;
    private final EntrySpool copies;
    private final EntrySpool deletes;
    private final EntrySpool attributes;
    private final EntrySpool directoryTimes;
    private final LongAdder destinationFiles = new LongAdder();
    private final LongAdder unchanged = new LongAdder();
    private final LongAdder toCopy = new LongAdder();
    private final LongAdder bytesToCopy = new LongAdder();
    private final LongAdder toDelete = new LongAdder();
    private final LongAdder deleted = new LongAdder();
    private final LongAdder attributesUpdated = new LongAdder();
    private final List<String> warnings = new ArrayList<>();
    private final long startNanos = System.nanoTime();
    private volatile long compareNanos = -1;
    private long futureTimes;
    private Instant now;

    SyncRun(TransferRun run) {
        this.run = requireNonNull(run, "run is null");
        this.job = run.job();
        this.options = job.options().sync();
        this.scratch = job.scratch().resolve("sync");
        this.copies = new EntrySpool(scratch, "copies");
        this.deletes = new EntrySpool(scratch, "deletes");
        this.attributes = new EntrySpool(scratch, "attributes");
        this.directoryTimes = new EntrySpool(scratch, "folders");
    }

    /** Plans, checks, deletes and starts the copies; the run waits for them, then calls {@link #finish()}. */
    void run() {
        now = run.now();
        plan();
        run.planned();
        if (run.stopped()) {
            return;
        }
        checkGuards();
        boolean deleting = confirmDeletes();
        if (job.options().dryRun()) {
            if (deleting) {
                deletes.forEach(entry -> run.listener().onDryRun("delete", entry.path().toString(), entry.size()));
            }
        }
        else {
            if (deleting) {
                deleteAll();
            }
            attributes.forEach(this::setAttributes);
        }
        copyAll();
    }

    private void plan() {
        Source source = job.source();
        Optional<Sink> sink = job.sink();
        Optional<Source> view = job.destinationView();
        Function<RelativePath, Stream<Entry>> destinationLister = sink.isPresent() ? sink.get()::list
                : view.isPresent() ? view.get()::list : directory -> Stream.empty();
        Optional<Entry> destinationRoot = sink.isPresent() ? sink.get().stat(RelativePath.ROOT)
                : view.flatMap(v -> v.stat(RelativePath.ROOT));
        io.mover.spi.EndpointInfo to = sink.map(Sink::info).or(() -> view.map(Source::info)).orElse(source.info());
        Duration precision = max(source.info().mtimePrecision(), to.mtimePrecision());
        SyncCompare compare = new SyncCompare(options.compare(), precision, source, view,
                source.info().preservesPosixMode() && to.preservesPosixMode());
        SyncPlanner planner = new SyncPlanner(source::list, destinationLister, new SyncFilter(job.options(), now), compare,
                options.deletesAllowed(), this, run::stopped, scratch, SPILL_AT, LISTERS, run.meter(Stage.ENUMERATE), run.meter(Stage.COMPARE));
        try {
            planner.run(job.sourceRoot(), destinationRoot);
        }
        finally {
            compareNanos = System.nanoTime() - startNanos;
        }
    }

    // ---- what the planner found ----

    @Override
    public void sourceScanned(Entry entry) {
        run.scanned(entry);
        if (entry.lastModified().isAfter(now.plus(Duration.ofMinutes(1)))) {
            futureTimes++;
        }
    }

    @Override
    public void destinationScanned(Entry entry) {
        destinationFiles.increment();
    }

    @Override
    public void unchanged(Entry source) {
        unchanged.increment();
        run.unchanged(source);
    }

    @Override
    public void copy(Entry source) {
        toCopy.increment();
        bytesToCopy.add(source.size());
        copies.add(source);
    }

    @Override
    public void createDirectory(Entry source) {
        copies.add(source);
    }

    @Override
    public void updateAttributes(Entry source) {
        unchanged.increment();
        run.unchanged(source);
        attributes.add(source);
    }

    @Override
    public void delete(Entry destination) {
        deletes.add(destination);
        if (destination.isDirectory()) {
            return;
        }
        toDelete.increment();
        if (options.maxDelete() >= 0 && toDelete.sum() > options.maxDelete()) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "this sync would delete more than " + options.maxDelete()
                    + " files at the destination (--max-delete " + options.maxDelete() + "); it stopped before deleting anything."
                    + " Check the source, or raise --max-delete");
        }
    }

    @Override
    public void directoryTime(Entry source) {
        directoryTimes.add(source);
    }

    @Override
    public void conflict(Entry source, Entry destination) {
        String what = source.isDirectory() ? "a folder at the source, and a " + typeName(destination) + " at the destination"
                : "a " + typeName(source) + " at the source, and a " + typeName(destination) + " at the destination";
        run.entryFailed(source.path(), new MoverException(ErrorCode.ALREADY_EXISTS, source.path() + " is " + what
                + "; sync with --delete-destination true to replace it"));
    }

    @Override
    public void listingFailed(RelativePath directory, MoverException error) {
        run.entryFailed(directory, new MoverException(error.code(), "cannot list " + (directory.isRoot() ? "the root" : directory)
                + ", so nothing below it was synced or deleted: " + error.getMessage(), error));
    }

    // ---- the phases after the plan ----

    private void checkGuards() {
        SyncFilter filter = new SyncFilter(job.options(), now);
        if (filter.active() && run.counters().filesScanned.sum() == 0) {
            warn("the filters match no file at the source");
        }
        if (futureTimes > 0) {
            warn(futureTimes + " source files have modification times in the future; they were compared as they are");
        }
        if (options.deletesAllowed() && toDelete.sum() > 0 && run.counters().filesScanned.sum() == 0 && !options.force()) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "the source lists no file while the destination holds " + toDelete.sum()
                    + " that this sync would delete (an unmounted or empty source looks like this); nothing was deleted."
                    + " Check the source, or pass --force to empty the destination");
        }
    }

    private boolean confirmDeletes() {
        if (!options.deletesAllowed() || deletes.isEmpty()) {
            return false;
        }
        if (options.deletes() == SyncOptions.DeleteMode.TRUE || job.options().dryRun()) {
            return true;
        }
        if (run.listener().confirmDeletes(toDelete.sum())) {
            return true;
        }
        warn("deletes declined: " + toDelete.sum() + " files at the destination that the source does not have were kept");
        return false;
    }

    /** Files before their folders (the spool's order); each re-checked, so what changed since it was listed is kept. */
    private void deleteAll() {
        Sink sink = run.sink();
        long changed = 0;
        for (Entry planned : deletes) {
            if (run.stopped()) {
                return;
            }
            try {
                Optional<Entry> current = sink.stat(planned.path());
                if (current.isEmpty()) {
                    continue;
                }
                if (current.get().type() != planned.type() || (!planned.isDirectory() && (current.get().size() != planned.size()
                        || !current.get().lastModified().equals(planned.lastModified())))) {
                    changed++;
                    continue;
                }
                sink.delete(planned.path(), false);
                if (!planned.isDirectory()) {
                    deleted.increment();
                }
            }
            catch (MoverException e) {
                if (planned.isDirectory()) {
                    // something was written into it since it was listed: it stays
                    changed++;
                    continue;
                }
                run.entryFailed(planned.path(), e);
            }
        }
        if (changed > 0) {
            warn(changed + " entries at the destination changed after they were listed and were not deleted");
        }
    }

    private void setAttributes(Entry entry) {
        try {
            run.sink().setAttributes(entry.path(), entry);
            attributesUpdated.increment();
        }
        catch (MoverException e) {
            run.entryFailed(entry.path(), e);
        }
    }

    /** New folders are created in order; files go to the run's workers, as a crawled copy's do. */
    private void copyAll() {
        DirectoryNode parent = DirectoryNode.root(job.sourceRoot(), node -> {});
        Set<RelativePath> cleaned = new HashSet<>();
        Optional<Sink> sink = job.sink();
        try {
            for (Entry entry : copies) {
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
                    run.entryFailed(entry.path(), e);
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
        if (job.sink().isPresent() && !run.stopped()) {
            for (Entry folder : directoryTimes) {
                try {
                    run.sink().setAttributes(folder.path(), folder);
                }
                catch (MoverException e) {
                    run.logWarning("could not set the modification time of folder " + folder.path() + ": " + e.getMessage());
                }
            }
        }
        for (EntrySpool spool : List.of(copies, deletes, attributes, directoryTimes)) {
            try {
                spool.close();
            }
            catch (RuntimeException e) {
                run.logWarning("could not remove a sync spool file: " + e.getMessage());
            }
        }
    }

    /** The counts so far (while planning, both sides' scanning counters). */
    SyncReport report() {
        long compare = compareNanos;
        List<String> current;
        synchronized (warnings) {
            current = List.copyOf(warnings);
        }
        return new SyncReport(run.counters().filesScanned.sum(), destinationFiles.sum(), unchanged.sum(), toCopy.sum(), bytesToCopy.sum(),
                toDelete.sum(), deleted.sum(), attributesUpdated.sum(), Duration.ofNanos(compare < 0 ? System.nanoTime() - startNanos : compare),
                compare < 0, current);
    }

    private void warn(String warning) {
        synchronized (warnings) {
            warnings.add(warning);
        }
        run.logWarning(warning);
    }

    private static String typeName(Entry entry) {
        return switch (entry.type()) {
            case FILE -> "file";
            case DIRECTORY -> "folder";
            case SYMLINK -> "symbolic link";
            case OTHER -> "special file";
        };
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}
