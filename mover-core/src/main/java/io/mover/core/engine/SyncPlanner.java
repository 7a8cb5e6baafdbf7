package io.mover.core.engine;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Stream;

import io.mover.spi.Entry;
import io.mover.spi.MoverException;
import io.mover.spi.RelativePath;

import static java.util.Objects.requireNonNull;

/**
 * The sync's compare (rclone's march): walks source and destination together, depth-first in name
 * order, each directory's two listings sorted ({@link SortedListing}, spilled when huge) and merged, and
 * tells {@link Actions} what each entry needs. Listings are fetched ahead on a small pool (the next
 * directories of both sides are listed while the current one is compared), so both trees are crawled
 * concurrently while the order of the actions stays deterministic (a durable driver resumes on it).
 * Memory is bounded: at most {@code lookahead} listings per level of depth are held, each at most
 * {@code spillAt} entries in the heap. Only what the listings carry is compared: no per-file call.
 * One planner runs once, on the caller's thread.
 */
public final class SyncPlanner {
    /** What the walk found, entry by entry, on the planner's thread, in a deterministic order. */
    public interface Actions {
        /** A file or link at the source that the filters consider. */
        default void sourceScanned(Entry entry) {}

        /** A file or link at the destination that the filters consider. */
        default void destinationScanned(Entry entry) {}

        default void unchanged(Entry source) {}

        /** A file or link to copy (new, or changed); its folder exists or was announced before. */
        void copy(Entry source);

        /** A folder missing at the destination, announced before anything inside it. */
        void createDirectory(Entry source);

        /** Content equal, mode or time to set. */
        default void updateAttributes(Entry source) {}

        /** An entry only at the destination; the contents of a folder come before the folder. */
        void delete(Entry destination);

        /** A folder whose time must be set once everything in it is done; after its contents (deepest first). */
        void directoryTime(Entry source);

        /** A file where a folder is, or the reverse, with deletes off: it cannot be synced. */
        void conflict(Entry source, Entry destination);

        /** A folder that could not be listed: nothing below it is copied or deleted. */
        void listingFailed(RelativePath directory, MoverException error);
    }

    private static final int LOOKAHEAD_ENTRIES = 4096;
    private static final Future<SortedListing> EMPTY = FolderListings.EMPTY;

    private final Function<RelativePath, Stream<Entry>> sourceLister;
    private final Function<RelativePath, Stream<Entry>> destinationLister;
    private final SyncFilter filter;
    private final SyncCompare compare;
    private final boolean deletes;
    private final Actions actions;
    private final BooleanSupplier stopped;
    private final Path scratch;
    private final int spillAt;
    private final int listers;
    private final StageMeter listingMeter;
    private final StageMeter compareMeter;
    private SyncRecorder recorder = SyncRecorder.NONE;
    /** Whether copying an entry makes it at the destination: not a symbolic link the run skips (see {@link #recording}). */
    private Predicate<Entry> made = entry -> true;
    private Predicate<RelativePath> destinationHere = folder -> false;

    SyncPlanner(Function<RelativePath, Stream<Entry>> sourceLister, Function<RelativePath, Stream<Entry>> destinationLister,
            SyncFilter filter, SyncCompare compare, boolean deletes, Actions actions, BooleanSupplier stopped, Path scratch,
            int spillAt, int listers, StageMeter listing, StageMeter comparing) {
        this.sourceLister = requireNonNull(sourceLister, "sourceLister is null");
        this.destinationLister = requireNonNull(destinationLister, "destinationLister is null");
        this.filter = requireNonNull(filter, "filter is null");
        this.compare = requireNonNull(compare, "compare is null");
        this.deletes = deletes;
        this.actions = requireNonNull(actions, "actions is null");
        this.stopped = requireNonNull(stopped, "stopped is null");
        this.scratch = requireNonNull(scratch, "scratch is null");
        this.spillAt = spillAt;
        this.listers = listers;
        this.listingMeter = requireNonNull(listing, "listing is null");
        this.compareMeter = requireNonNull(comparing, "comparing is null");
    }

    private FolderListings listings;

    /**
     * Records what the destination will hold as the walk goes ({@code --catalog}); {@code copied} says whether a copy of
     * an entry makes it there (false for a symbolic link the run does not preserve: it is skipped, and what the
     * destination had under that name is what it keeps).
     */
    SyncPlanner recording(SyncRecorder value, Predicate<Entry> copied) {
        this.recorder = requireNonNull(value, "value is null");
        this.made = requireNonNull(copied, "copied is null");
        return this;
    }

    /** Destination folders {@code here} accepts (the catalog's) are read on the walk's thread as it gets there, not on the pool. */
    SyncPlanner listedHere(Predicate<RelativePath> here) {
        this.destinationHere = requireNonNull(here, "here is null");
        return this;
    }

    /** Walks both trees from their roots; {@code destinationRoot} is empty when the destination does not exist yet. */
    public void run(Entry sourceRoot, Optional<Entry> destinationRoot) {
        long start = System.nanoTime();
        try (FolderListings opened = new FolderListings(listers, spillAt, scratch, listingMeter, compareMeter, actions::listingFailed)) {
            listings = opened;
            Future<SortedListing> destination = destinationRoot.filter(Entry::isDirectory).isPresent()
                    ? destinationListing(RelativePath.ROOT) : EMPTY;
            boolean changed = walk(RelativePath.ROOT, listings.list(sourceLister, RelativePath.ROOT, true), destination);
            if (!stopped.getAsBoolean() && (changed || destinationRoot.isEmpty() || !compare.sameTime(sourceRoot, destinationRoot.get()))) {
                actions.directoryTime(sourceRoot);
            }
        }
        finally {
            // COMPARE is the walk's own time: waiting for listings is ENUMERATE's, metered on the pool
            compareMeter.busy(start + (listings == null ? 0 : listings.waitedNanos()), 0);
        }
    }

    /**
     * One side of the walk ahead: an entry of both listings merged by name (each null when absent or left out by the
     * filters; {@code listedDestination} as listed), with its listings when it is a folder.
     */
    private record Item(Entry source, Entry destination, Entry listedDestination, Future<SortedListing> sourceListing,
            Future<SortedListing> destinationListing) {
        boolean listed() {
            return sourceListing != EMPTY || destinationListing != EMPTY;
        }
    }

    /** Compares one folder's two listings; true when an entry directly inside it was created, replaced or removed. */
    private boolean walk(RelativePath directory, Future<SortedListing> sourceFuture, Future<SortedListing> destinationFuture) {
        Optional<SortedListing> source = listings.await(directory, sourceFuture);
        Optional<SortedListing> destination = listings.await(directory, destinationFuture);
        if (source.isEmpty() || destination.isEmpty()) {
            source.ifPresent(SortedListing::close);
            destination.ifPresent(SortedListing::close);
            recorder.broken();
            return false;
        }
        Deque<Item> ahead = new ArrayDeque<>();
        recorder.enter(directory, destinationFuture != EMPTY);
        try (SortedListing s = source.get(); SortedListing d = destination.get()) {
            NameMerge merge = new NameMerge(s.iterator(), d.iterator());
            int listedAhead = 0;
            boolean changed = false;
            while (true) {
                while (ahead.size() < LOOKAHEAD_ENTRIES && listedAhead < listers * 2 && merge.hasNext()) {
                    Item item = prefetch(merge.next());
                    ahead.add(item);
                    listedAhead += item.listed() ? 1 : 0;
                }
                Item item = ahead.poll();
                if (item == null || stopped.getAsBoolean()) {
                    if (item != null) {
                        recorder.broken();
                    }
                    return changed;
                }
                listedAhead -= item.listed() ? 1 : 0;
                changed |= visit(item);
            }
        }
        finally {
            recorder.leave();
            // a stopped walk leaves listings fetched ahead: close them so their spill files go
            for (Item left : ahead) {
                FolderListings.closeLater(left.sourceListing);
                FolderListings.closeLater(left.destinationListing);
            }
        }
    }

    /** Keeps only what the filters consider, and starts listing the folders that will be walked. */
    private Item prefetch(Entry[] pair) {
        Entry source = considered(pair[0]) ? pair[0] : null;
        Entry destination = considered(pair[1]) ? pair[1] : null;
        boolean sourceFolder = source != null && source.isDirectory();
        boolean destinationFolder = destination != null && destination.isDirectory();
        Future<SortedListing> sourceListing = sourceFolder ? listings.list(sourceLister, source.path(), true) : EMPTY;
        Future<SortedListing> destinationListing = destinationFolder && (sourceFolder || deletes)
                ? destinationListing(destination.path()) : EMPTY;
        return new Item(source, destination, pair[1], sourceListing, destinationListing);
    }

    private Future<SortedListing> destinationListing(RelativePath folder) {
        return destinationHere.test(folder) ? listings.deferred(destinationLister, folder, false) : listings.list(destinationLister, folder, false);
    }

    private boolean considered(Entry entry) {
        if (entry == null) {
            return false;
        }
        return switch (entry.type()) {
            case DIRECTORY -> filter.enters(entry.path());
            case FILE, SYMLINK -> filter.considers(entry);
            // a device or pipe is never copied; at the destination it is in the way like a file
            case OTHER -> false;
        };
    }

    private boolean visit(Item item) {
        Entry source = item.source();
        Entry destination = item.destination();
        Entry after = after(item);
        if (after != null || item.listedDestination() != null && (source == null || destination == null || source.type() != destination.type())) {
            // a name the sync deletes is recorded too (as null): the recorder compares with what was listed
            recorder.entry(after, item.listedDestination());
        }
        if (source != null && !source.isDirectory()) {
            actions.sourceScanned(source);
        }
        if (destination != null && !destination.isDirectory()) {
            actions.destinationScanned(destination);
        }
        if (source == null && destination == null) {
            return false;
        }
        if (destination == null) {
            return sourceOnly(source, item.sourceListing());
        }
        if (source == null) {
            return destinationOnly(destination, item.destinationListing());
        }
        if (source.type() == destination.type() && source.isDirectory()) {
            boolean changedInside = walk(source.path(), item.sourceListing(), item.destinationListing());
            if (changedInside || !compare.sameTime(source, destination) || modeDiffers(source, destination)) {
                actions.directoryTime(source);
            }
            return false;
        }
        if (source.type() == destination.type()) {
            SyncCompare.Verdict verdict = compare.compare(source, destination);
            recorder.entry(verdict == SyncCompare.Verdict.EQUAL || verdict == SyncCompare.Verdict.CHANGED && !made.test(source)
                    ? destination : source, item.listedDestination());
            switch (verdict) {
                case EQUAL -> actions.unchanged(source);
                case ATTRIBUTES_ONLY -> actions.updateAttributes(source);
                case CHANGED -> {
                    actions.copy(source);
                    return true;
                }
            }
            return false;
        }
        if (!deletes) {
            actions.conflict(source, destination);
            FolderListings.closeLater(item.sourceListing());
            FolderListings.closeLater(item.destinationListing());
            return false;
        }
        destinationOnly(destination, item.destinationListing());
        return sourceOnly(source, item.sourceListing());
    }

    /** What the destination holds under the item's name once the plan is carried out; null for nothing. */
    private Entry after(Item item) {
        Entry source = item.source();
        Entry destination = item.destination();
        if (source == null) {
            // left alone: not considered by the filters, or only at the destination with deletes off
            return destination == null ? item.listedDestination() : deletes ? null : destination;
        }
        if (source.isDirectory() && destination != null && destination.isDirectory()) {
            return source;
        }
        if (destination == null) {
            // a link the run skips leaves what was there (an entry the filters left out, or nothing)
            return made.test(source) ? source : item.listedDestination();
        }
        if (source.type() != destination.type()) {
            return deletes ? made.test(source) ? source : null : destination;
        }
        return null; // two files (or links) of one name: the compare in visit() decides, and records
    }

    private static boolean modeDiffers(Entry source, Entry destination) {
        return source.attributes().posixMode().isPresent() && destination.attributes().posixMode().isPresent()
                && source.attributes().posixMode().getAsInt() != destination.attributes().posixMode().getAsInt();
    }

    private boolean sourceOnly(Entry source, Future<SortedListing> listing) {
        if (!source.isDirectory()) {
            actions.copy(source);
            return true;
        }
        actions.createDirectory(source);
        walk(source.path(), listing, EMPTY);
        actions.directoryTime(source);
        return true;
    }

    private boolean destinationOnly(Entry destination, Future<SortedListing> listing) {
        if (!deletes) {
            return false;
        }
        if (destination.isDirectory()) {
            walk(destination.path(), EMPTY, listing);
            if (stopped.getAsBoolean()) {
                return false;
            }
        }
        actions.delete(destination);
        return true;
    }

}
