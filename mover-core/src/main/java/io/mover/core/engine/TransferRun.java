package io.mover.core.engine;

import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.stream.Stream;

import io.mover.core.codec.BlockCodec;
import io.mover.core.codec.CodecPool;
import io.mover.spi.BlockHeader;
import io.mover.spi.Entry;
import io.mover.spi.ErrorCategory;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.RelativePath;
import io.mover.spi.ServerSideCopy;
import io.mover.spi.Sink;
import io.mover.spi.Source;
import io.mover.spi.SourceReader;
import io.mover.spi.SymbolicLinks;

import static java.util.Objects.requireNonNull;

/**
 * One run of one job, read top-down: {@link #run()} crawls the source depth-first and lazily (a
 * directory's listing is consumed as it streams, never collected), hands each file to a virtual
 * thread once a concurrency permit is free (so enumeration never runs far ahead of the transfer, and
 * memory stays flat whatever the tree's size), and waits for the last file. See {@link FileCopy} for
 * what happens to one file.
 */
final class TransferRun {
    private static final System.Logger LOG = System.getLogger(TransferRun.class.getName());

    private final PreparedJob job;
    private final TransferOptions options;
    private final Clock clock;
    private final CancellationToken cancellation;
    private final PathFilter filter;
    private final JobMeters meters = new JobMeters();
    private final JobCounters counters = new JobCounters();
    private final BufferPool pool;
    private final CodecPool codecs;
    private final Semaphore permits;
    private final AtomicReference<MoverException> fatal = new AtomicReference<>();
    private final ProgressTicker ticker;
    private final JobListener listener;
    private ExecutorService workers;
    /** Set once the sink has declined a server-side copy from this source: every later file streams. */
    private volatile boolean serverSideCopyDeclined;

    TransferRun(PreparedJob job, Clock clock, JobListener listener, CancellationToken cancellation) {
        this.job = requireNonNull(job, "job is null");
        this.options = job.options();
        this.clock = requireNonNull(clock, "clock is null");
        this.listener = requireNonNull(listener, "listener is null");
        this.cancellation = requireNonNull(cancellation, "cancellation is null");
        this.filter = new PathFilter(options.includes(), options.excludes());
        this.codecs = new CodecPool(job.codec());
        io.mover.spi.Codec probe = job.codec().newCodec();
        this.pool = new BufferPool(options.bufferPoolBytes(), options.blockSize(), BlockCodec.encodedCapacity(probe, options.blockSize()));
        this.permits = new Semaphore(options.concurrency());
        this.ticker = new ProgressTicker(this, clock, listener, options.progressInterval());
    }

    JobSummary run() {
        ticker.start();
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
            workers = executor;
            enumerate();
            ticker.enumerationDone();
        }
        catch (MoverException e) {
            fatal.compareAndSet(null, e);
        }
        ticker.stop();
        return ticker.finish();
    }

    private void enumerate() {
        Entry root = job.sourceRoot();
        if (root.isFile()) {
            DirectoryNode parent = DirectoryNode.root(root, node -> {});
            if (filter.includesFile(job.rootTarget())) {
                scanned(root);
                schedule(new FileCopy(this, root, job.rootTarget(), parent));
            }
            parent.closed();
            return;
        }
        crawl(RelativePath.ROOT, DirectoryNode.root(root, this::directoryComplete));
    }

    /** Creates the directory at the destination, then visits its entries as the listing streams. */
    private void crawl(RelativePath directory, DirectoryNode node) {
        StageMeter enumerate = meters.get(Stage.ENUMERATE);
        try {
            if (stopped()) {
                return;
            }
            Optional<Sink> sink = job.sink();
            if (sink.isPresent()) {
                long start = System.nanoTime();
                if (sink.get().mkdirs(directory)) {
                    counters.directoriesCreated.increment();
                }
                sink.get().removeStaleTemporaries(directory);
                enumerate.busy(start, 0);
            }
            try (Stream<Entry> listing = job.source().list(directory)) {
                Iterator<Entry> entries = listing.iterator();
                while (!stopped()) {
                    long start = System.nanoTime();
                    boolean more = entries.hasNext();
                    Entry entry = more ? entries.next() : null;
                    enumerate.busy(start, 0);
                    if (!more) {
                        break;
                    }
                    visit(entry, node);
                }
            }
        }
        catch (MoverException e) {
            entryFailed(directory, e);
        }
        catch (RuntimeException e) {
            entryFailed(directory, unexpected(e));
        }
        finally {
            node.closed();
        }
    }

    private void visit(Entry entry, DirectoryNode parent) {
        switch (entry.type()) {
            case DIRECTORY -> {
                if (filter.entersDirectory(entry.path())) {
                    crawl(entry.path(), parent.child(entry));
                }
            }
            case FILE -> {
                if (filter.includesFile(entry.path())) {
                    scanned(entry);
                    schedule(new FileCopy(this, entry, entry.path(), parent));
                }
            }
            case SYMLINK -> {
                if (filter.includesFile(entry.path())) {
                    scanned(entry);
                    symlink(entry);
                }
            }
            case OTHER -> LOG.log(System.Logger.Level.DEBUG, "skipping {0}: neither a file, a directory nor a link", entry.path());
        }
    }

    private void scanned(Entry entry) {
        counters.filesScanned.increment();
        counters.bytesScanned.add(entry.size());
    }

    /** Waits for concurrency permits (the backpressure on the crawl), then starts each range on a virtual thread. */
    private void schedule(FileCopy file) {
        file.directoryOpened();
        for (int range = 0; range < file.ranges(); range++) {
            long start = System.nanoTime();
            try {
                permits.acquire();
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                cancellation.cancel();
            }
            meters.get(Stage.ENUMERATE).waited(start);
            int index = range;
            workers.execute(() -> {
                try {
                    file.runRange(index);
                }
                finally {
                    permits.release();
                }
            });
        }
    }

    private void symlink(Entry entry) {
        if (options.symlinks() != SymlinkPolicy.PRESERVE || entry.attributes().symlinkTarget().isEmpty()) {
            counters.filesSkipped.increment();
            return;
        }
        if (options.dryRun()) {
            plannedCopy(entry, entry.path());
            return;
        }
        try {
            ((SymbolicLinks) sink()).createSymbolicLink(entry.path(), entry.attributes().symlinkTarget().get());
            counters.filesDone.increment();
        }
        catch (MoverException e) {
            fileFailed(entry.path(), e, 1);
        }
    }

    private void directoryComplete(DirectoryNode node) {
        if (job.sink().isEmpty() || stopped()) {
            return;
        }
        try {
            job.sink().get().setAttributes(node.source().path(), node.source());
        }
        catch (MoverException e) {
            logWarning("could not set the modification time of directory " + node.source().path() + ": " + e.getMessage());
        }
    }

    // ---- what FileCopy asks of the run ----

    /** Whether {@code entry} must be copied over what is at {@code target}, by the overwrite policy. */
    boolean shouldCopy(Entry entry, RelativePath target) {
        if (options.overwrite() == OverwritePolicy.TRUE) {
            return true;
        }
        Optional<Entry> existing = job.sink().isPresent() ? job.sink().get().stat(target)
                : job.destinationView().flatMap(view -> view.stat(target));
        if (existing.isEmpty() || !existing.get().isFile()) {
            return true;
        }
        if (options.overwrite() == OverwritePolicy.FALSE) {
            return false;
        }
        Duration precision = max(job.source().info().mtimePrecision(), job.sink().map(s -> s.info().mtimePrecision()).orElse(Duration.ofSeconds(1)));
        return entry.lastModified().isAfter(existing.get().lastModified().plus(precision).minusNanos(1));
    }

    void verify(RelativePath target, long size, int[] expected) {
        Source view = job.destinationView().orElseThrow();
        long start = System.nanoTime();
        BufferPool.Slot slot = pool.acquire();
        try (SourceReader reader = view.open(target)) {
            if (reader.size() != size) {
                throw new MoverException(ErrorCode.CHECKSUM_MISMATCH, "verify: " + target + " has " + reader.size() + " bytes, expected " + size);
            }
            ByteBuffer buffer = slot.raw();
            for (int block = 0; block < expected.length; block++) {
                buffer.clear().limit((int) Math.min(options.blockSize(), size - (long) block * options.blockSize()));
                reader.read((long) block * options.blockSize(), buffer);
                buffer.flip();
                if (BlockCodec.crc32c(buffer) != expected[block]) {
                    throw new MoverException(ErrorCode.CHECKSUM_MISMATCH, "verify: " + target + " differs from the source in block " + block);
                }
            }
        }
        finally {
            pool.release(slot);
            meters.get(Stage.COMMIT).busy(start, size);
        }
    }

    void fileCommitted(Entry entry) {
        counters.filesDone.increment();
        counters.bytesTransferred.add(entry.size());
    }

    void plannedCopy(Entry entry, RelativePath target) {
        counters.filesDone.increment();
        counters.bytesTransferred.add(entry.size());
        counters.bytesMoved.add(entry.size());
        listener.onDryRun("copy", target.toString(), entry.size());
    }

    void fileFailed(RelativePath path, MoverException error, int attempts) {
        counters.failed(new FileFailure(path.toString(), error.code(), error.getMessage(), attempts));
        if (error.category() == ErrorCategory.FATAL && fatal.compareAndSet(null, error)) {
            LOG.log(System.Logger.Level.INFO, "stopping the job: {0}", error.getMessage());
        }
    }

    private void entryFailed(RelativePath path, MoverException error) {
        fileFailed(path, error, 1);
    }

    void removeQuietly(RelativePath target) {
        try {
            sink().delete(target, false);
        }
        catch (MoverException e) {
            logWarning("could not remove " + target + " after it failed verification: " + e.getMessage());
        }
    }

    /** Runs {@code action}, again after a backoff for retryable errors, up to the configured retries. */
    <T> T withRetries(Supplier<T> action) {
        return withRetries(action, new AtomicInteger());
    }

    /** As {@link #withRetries(Supplier)}, raising {@code attempts} to the most attempts any call needed. */
    <T> T withRetries(Supplier<T> action, AtomicInteger attempts) {
        for (int attempt = 0; ; attempt++) {
            int tried = attempt + 1;
            attempts.accumulateAndGet(tried, Math::max);
            try {
                return action.get();
            }
            catch (MoverException e) {
                if (!e.isRetryable() || attempt >= options.maxRetries() || stopped()) {
                    throw e;
                }
                LOG.log(System.Logger.Level.DEBUG, "retrying after {0}", e.getMessage());
                backoff(attempt);
            }
        }
    }

    /** Sleeps the exponential backoff of {@code attempt} (0-based), with jitter so retries do not align. */
    void backoff(int attempt) {
        counters.retries.increment();
        long base = options.retryBackoff().toMillis() << Math.min(attempt, 10);
        long millis = Math.min(30_000, base / 2 + ThreadLocalRandom.current().nextLong(base / 2 + 1));
        try {
            Thread.sleep(millis);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MoverException(ErrorCode.CANCELLED, "interrupted while waiting to retry", e);
        }
    }

    boolean stopped() {
        return cancellation.isCancelled() || fatal.get() != null;
    }

    void logWarning(String message) {
        LOG.log(System.Logger.Level.WARNING, message);
    }

    static MoverException unexpected(RuntimeException e) {
        if (e instanceof MoverException mover) {
            return mover;
        }
        if (e.getCause() instanceof java.io.IOException io) {
            return new MoverException(ErrorCode.IO_ERROR, io.getMessage() == null ? io.getClass().getSimpleName() : io.getMessage(), e);
        }
        return new MoverException(ErrorCode.INTERNAL, "unexpected " + e.getClass().getSimpleName() + ": " + e.getMessage(), e);
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    /**
     * The sink's server-side copy, when this job may use it: the bytes would not pass through the
     * engine, so only where nothing needs them here (no codec asked for, no block checksums kept for
     * {@code --verify}, a real run) and until the sink has declined once.
     */
    Optional<ServerSideCopy> serverSideCopy() {
        if (serverSideCopyDeclined || options.dryRun() || options.verify() || !job.codec().choice().isNone()) {
            return Optional.empty();
        }
        return job.sink().filter(ServerSideCopy.class::isInstance).map(ServerSideCopy.class::cast);
    }

    void serverSideCopyDeclined() {
        if (!serverSideCopyDeclined) {
            serverSideCopyDeclined = true;
            LOG.log(System.Logger.Level.DEBUG, "the destination cannot copy from this source by itself; streaming the bytes");
        }
    }

    TransferOptions options() { return options; }
    Source source() { return job.source(); }
    Sink sink() { return job.sink().orElseThrow(() -> new IllegalStateException("a dry run has no sink")); }
    StageMeter meter(Stage stage) { return meters.get(stage); }
    JobMeters meters() { return meters; }
    JobCounters counters() { return counters; }
    BufferPool pool() { return pool; }
    CodecPool codecs() { return codecs; }
    BlockTransport transport() { return BlockTransport.IN_PROCESS; }
    PreparedJob job() { return job; }
    Optional<MoverException> fatal() { return Optional.ofNullable(fatal.get()); }
    boolean cancelled() { return cancellation.isCancelled(); }
    Instant now() { return clock.instant(); }
}
