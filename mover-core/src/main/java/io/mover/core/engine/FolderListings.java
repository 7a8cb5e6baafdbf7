package io.mover.core.engine;

import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.stream.Stream;

import io.mover.spi.Entry;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.RelativePath;

/**
 * The folders of a sync's two trees, listed ahead of its walk on a small pool of platform threads (listing
 * is blocking I/O, a stat per entry on a local disk), each sorted by name ({@link SortedListing}, spilled
 * when huge); the walk takes them in its own order. A listing that fails is reported and its folder
 * skipped, unless the failure is fatal; one that never gets taken is closed so its spill file goes.
 */
final class FolderListings implements AutoCloseable {
    static final Future<SortedListing> EMPTY = CompletableFuture.completedFuture(SortedListing.EMPTY);

    private final ExecutorService pool;
    private final int spillAt;
    private final Path scratch;
    private final StageMeter listingMeter;
    private final StageMeter compareMeter;
    private final BiConsumer<RelativePath, MoverException> failed;
    private long waitedNanos;

    FolderListings(int listers, int spillAt, Path scratch, StageMeter listing, StageMeter comparing, BiConsumer<RelativePath, MoverException> failed) {
        this.pool = Executors.newFixedThreadPool(listers, Thread.ofPlatform().daemon().name("mover-sync-list-", 0).factory());
        this.spillAt = spillAt;
        this.scratch = scratch;
        this.listingMeter = listing;
        this.compareMeter = comparing;
        this.failed = failed;
    }

    Future<SortedListing> list(Function<RelativePath, Stream<Entry>> lister, RelativePath directory, boolean source) {
        return pool.submit(() -> listed(lister, directory, source));
    }

    /**
     * A listing made on the walk's own thread when it gets there ({@link #await}), not on the pool: for one that costs
     * less than handing it over, a folder read from the sync's catalog (about 12 us of decoding, where a hand-off is the
     * pool queue's lock, a wake-up of a parked lister and often one of the walk waiting for it).
     */
    Future<SortedListing> deferred(Function<RelativePath, Stream<Entry>> lister, RelativePath directory, boolean source) {
        return new Deferred(() -> listed(lister, directory, source));
    }

    /** A listing not submitted anywhere: {@link #await} runs it. */
    private static final class Deferred extends FutureTask<SortedListing> {
        Deferred(Callable<SortedListing> listing) {
            super(listing);
        }
    }

    private SortedListing listed(Function<RelativePath, Stream<Entry>> lister, RelativePath directory, boolean source) {
        long start = System.nanoTime();
        try {
            return SortedListing.of(lister.apply(directory), spillAt, scratch);
        }
        catch (MoverException e) {
            // a folder gone from the destination since its parent was listed is empty; one gone from the source is a failure
            if (!source && e.code() == ErrorCode.NOT_FOUND) {
                return SortedListing.EMPTY;
            }
            throw e;
        }
        finally {
            listingMeter.busy(start, 0);
        }
    }

    Optional<SortedListing> await(RelativePath directory, Future<SortedListing> listing) {
        long start = System.nanoTime();
        try {
            if (listing instanceof Deferred here) {
                // made here, and timed as the walk's wait: it is listing time (metered as such), not comparing
                here.run();
            }
            return Optional.of(listing.get());
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MoverException(ErrorCode.CANCELLED, "interrupted while listing " + display(directory));
        }
        catch (ExecutionException e) {
            MoverException error = e.getCause() instanceof MoverException m ? m
                    : new MoverException(ErrorCode.INTERNAL, "listing " + display(directory) + " failed: " + e.getCause(), e.getCause());
            if (error.category() == io.mover.spi.ErrorCategory.FATAL) {
                throw error;
            }
            failed.accept(directory, error);
            return Optional.empty();
        }
        finally {
            long waited = System.nanoTime() - start;
            waitedNanos += waited;
            compareMeter.waited(System.nanoTime() - waited);
        }
    }

    static void closeLater(Future<SortedListing> listing) {
        if (listing != EMPTY && !listing.cancel(true)) {
            try {
                listing.get().close();
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            catch (ExecutionException | java.util.concurrent.CancellationException e) {
                // a listing that failed holds no files
            }
        }
    }

    /** How long the walk has waited for listings so far (its thread only). */
    long waitedNanos() {
        return waitedNanos;
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }

    private static String display(RelativePath directory) {
        return directory.isRoot() ? "the root" : directory.toString();
    }
}
