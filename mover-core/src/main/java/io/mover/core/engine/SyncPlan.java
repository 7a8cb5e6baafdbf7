package io.mover.core.engine;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.stream.Stream;

import io.mover.spi.EndpointInfo;
import io.mover.spi.Entry;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.RelativePath;
import io.mover.spi.Sink;
import io.mover.spi.Source;

import static java.util.Objects.requireNonNull;

/**
 * What a sync must do, found by listing and comparing both sides ({@link SyncPlanner}) and spooled in
 * order: deletes (files before their folders), mode or time fixes, copies (new folders before their
 * contents) and folder times (deepest first). The embedded run executes it at once ({@code SyncRun});
 * the durable job service cuts it into recorded units. Checking {@link #checkGuards()} before acting is
 * what stops a sync before it deletes anything. Built and read on one thread.
 */
public final class SyncPlan implements SyncPlanner.Actions, AutoCloseable {
    /** Listings of both sides fetched at once (each a blocking walk of one folder). */
    static final int LISTERS = Integer.getInteger("mover.sync.listers", 8);
    /** Entries of one folder's listing held in the heap before it is sorted on disk. */
    static final int SPILL_AT = 16_384;

    /** What the plan tells its runner while it is made. */
    public interface Listener {
        /** A file or link at the source that the filters consider. */
        default void sourceScanned(Entry entry) {}

        /** A file found equal at the destination. */
        default void unchanged(Entry entry) {}

        /** An entry that cannot be synced (a folder that cannot be listed, a file where a folder is). */
        void failed(RelativePath path, MoverException error);
    }

    /** How a checked delete ended. */
    public enum Deletion { DELETED, GONE, CHANGED }

    private final PreparedJob job;
    private final SyncOptions options;
    private final Instant now;
    /** Times after this are in the future (computed once, not per file scanned). */
    private final Instant future;
    private final Listener listener;
    private final Path scratch;
    private final EntrySpool copies;
    private final EntrySpool deletes;
    private final EntrySpool attributes;
    private final EntrySpool directoryTimes;
    private final LongAdder sourceFiles = new LongAdder();
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
    private final Optional<CatalogUse> catalog;
    private long futureTimes;

    SyncPlan(PreparedJob job, Instant now, Listener listener) {
        this.job = requireNonNull(job, "job is null");
        this.options = job.options().sync();
        this.now = requireNonNull(now, "now is null");
        this.future = now.plus(Duration.ofMinutes(1));
        this.listener = requireNonNull(listener, "listener is null");
        this.scratch = job.scratch().resolve("sync");
        this.copies = new EntrySpool(scratch, "copies");
        this.deletes = new EntrySpool(scratch, "deletes");
        this.attributes = new EntrySpool(scratch, "attributes");
        this.directoryTimes = new EntrySpool(scratch, "folders");
        this.catalog = job.catalog().map(c -> new CatalogUse(c, job.options().dryRun()));
    }

    /** Lists and compares both sides; the destination through its sink, or (dry run) its read-only view. */
    void plan(BooleanSupplier stopped, StageMeter listing, StageMeter comparing) {
        Source source = job.source();
        Optional<Sink> sink = job.sink();
        Optional<Source> view = job.destinationView();
        Function<RelativePath, Stream<Entry>> listed = sink.isPresent() ? sink.get()::list
                : view.isPresent() ? view.get()::list : directory -> Stream.empty();
        Optional<Entry> destinationRoot = sink.isPresent() ? sink.get().stat(RelativePath.ROOT)
                : view.flatMap(v -> v.stat(RelativePath.ROOT));
        Function<RelativePath, Stream<Entry>> destinationLister = catalog.map(use -> use.lister(listed, destinationRoot)).orElse(listed);
        EndpointInfo to = sink.map(Sink::info).or(() -> view.map(Source::info)).orElse(source.info());
        Duration precision = max(source.info().mtimePrecision(), to.mtimePrecision());
        SyncCompare compare = new SyncCompare(options.compare(), precision, source, view,
                source.info().preservesPosixMode() && to.preservesPosixMode());
        SyncPlanner planner = new SyncPlanner(source::list, destinationLister, new SyncFilter(job.options(), now), compare,
                options.deletesAllowed(), this, stopped, scratch, SPILL_AT, LISTERS, listing, comparing)
                .recording(catalog.map(CatalogUse::recorder).orElse(SyncRecorder.NONE), this::copied)
                .listedHere(folder -> catalog.isPresent() && catalog.get().holds(folder));
        try {
            planner.run(job.sourceRoot(), destinationRoot);
            catalog.ifPresent(use -> {
                use.walked();
                note(use.note());
            });
        }
        finally {
            compareNanos = System.nanoTime() - startNanos;
        }
    }

    /** Whether a copy of {@code entry} makes it at the destination: not a link {@link TransferRun} skips (its rule). */
    private boolean copied(Entry entry) {
        return entry.type() != io.mover.spi.EntryType.SYMLINK
                || job.options().symlinks() == SymlinkPolicy.PRESERVE && entry.attributes().symlinkTarget().isPresent();
    }

    // ---- what the planner found ----

    @Override
    public void sourceScanned(Entry entry) {
        sourceFiles.increment();
        listener.sourceScanned(entry);
        if (entry.lastModified().isAfter(future)) {
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
        listener.unchanged(source);
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
        unchanged(source);
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
        listener.failed(source.path(), new MoverException(ErrorCode.ALREADY_EXISTS, source.path() + " is " + what
                + "; sync with --delete-destination true to replace it"));
    }

    @Override
    public void listingFailed(RelativePath directory, MoverException error) {
        listener.failed(directory, new MoverException(error.code(), "cannot list " + (directory.isRoot() ? "the root" : directory)
                + ", so nothing below it was synced or deleted: " + error.getMessage(), error));
    }

    // ---- after the plan ----

    /**
     * The checks made once the whole plan is known, before anything is changed: throws when the
     * source lists no file while deletes are planned (unless forced); warns about filters matching
     * nothing and times in the future. ({@code --max-delete} stopped the plan already.)
     */
    public void checkGuards() {
        if (new SyncFilter(job.options(), now).active() && sourceFiles.sum() == 0) {
            warn("the filters match no file at the source");
        }
        if (futureTimes > 0) {
            warn(futureTimes + " source files have modification times in the future; they were compared as they are");
        }
        if (options.deletesAllowed() && toDelete.sum() > 0 && sourceFiles.sum() == 0 && !options.force()) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "the source lists no file while the destination holds " + toDelete.sum()
                    + " that this sync would delete (an unmounted or empty source looks like this); nothing was deleted."
                    + " Check the source, or pass --force to empty the destination");
        }
    }

    /**
     * Deletes {@code planned} unless it changed since it was listed: a file whose size or time moved
     * (written meanwhile) is kept, and so is a folder that is no longer empty.
     */
    public static Deletion deleteChecked(Sink sink, Entry planned) {
        Optional<Entry> current = sink.stat(planned.path());
        if (current.isEmpty()) {
            return Deletion.GONE;
        }
        if (current.get().type() != planned.type() || (!planned.isDirectory() && (current.get().size() != planned.size()
                || !current.get().lastModified().equals(planned.lastModified())))) {
            return Deletion.CHANGED;
        }
        try {
            sink.delete(planned.path(), false);
        }
        catch (MoverException e) {
            if (planned.isDirectory()) {
                return Deletion.CHANGED;
            }
            throw e;
        }
        return Deletion.DELETED;
    }

    /** Counts a delete done; {@code changed} of them were kept because they changed after they were listed. */
    public void deleted(long files, long changed) {
        deleted.add(files);
        if (changed > 0) {
            catalog.ifPresent(CatalogUse::unaccounted);
            warn(changed + " entries at the destination changed after they were listed and were not deleted");
        }
    }

    /** Deletes planned were declined: the destination keeps what the catalog would have dropped. */
    public void deletesDeclined() {
        catalog.ifPresent(CatalogUse::unaccounted);
    }

    /**
     * The sync ended: with {@code --catalog}, a success that did everything planned makes its record the catalog of the
     * pair; anything else drops the catalog (the next sync lists the destination). Nothing for a dry run.
     */
    public void endCatalog(boolean succeeded) {
        catalog.ifPresent(use -> use.end(succeeded));
    }

    public void attributesUpdated() {
        attributesUpdated.increment();
    }

    /** Files and folders to delete, files before their folders. */
    public Iterable<Entry> deletes() {
        return deletes;
    }

    public boolean hasDeletes() {
        return !deletes.isEmpty();
    }

    /** New folders (before their contents) and the files and links to copy, in the walk's order. */
    public Iterable<Entry> copies() {
        return copies;
    }

    /** Files whose content is equal and whose mode or time is to be set. */
    public Iterable<Entry> attributes() {
        return attributes;
    }

    /** Folders whose time is to be set once everything in them is done, deepest first. */
    public Iterable<Entry> directoryTimes() {
        return directoryTimes;
    }

    public long filesToDelete() {
        return toDelete.sum();
    }

    /** The counts so far (while planning, both sides' scanning counters). */
    public SyncReport report() {
        long compare = compareNanos;
        List<String> current;
        synchronized (warnings) {
            current = List.copyOf(warnings);
        }
        return new SyncReport(sourceFiles.sum(), destinationFiles.sum(), unchanged.sum(), toCopy.sum(), bytesToCopy.sum(),
                toDelete.sum(), deleted.sum(), attributesUpdated.sum(), Duration.ofNanos(compare < 0 ? System.nanoTime() - startNanos : compare),
                compare < 0, current);
    }

    public void warn(String warning) {
        note(warning);
        System.getLogger(SyncPlan.class.getName()).log(System.Logger.Level.WARNING, warning);
    }

    /** Something the operator should read in the summary, not worth a warning in the log (where the listing came from). */
    private void note(String text) {
        synchronized (warnings) {
            warnings.add(text);
        }
    }

    /** Removes the spool files. */
    @Override
    public void close() {
        // a plan that failed for the job service is closed here only: its catalog files too
        catalog.ifPresent(CatalogUse::release);
        for (EntrySpool spool : List.of(copies, deletes, attributes, directoryTimes)) {
            spool.close();
        }
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
