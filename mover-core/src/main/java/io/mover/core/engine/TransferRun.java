package io.mover.core.engine;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import io.mover.core.codec.BlockCodec;
import io.mover.core.codec.CodecPool;
import io.mover.spi.BlockHeader;
import io.mover.spi.Entry;
import io.mover.spi.LinkSink;
import io.mover.spi.MoverException;
import io.mover.spi.ServerSideCopy;
import io.mover.spi.Sink;
import io.mover.spi.Source;
import io.mover.spi.SymbolicLinks;

import static java.util.Objects.requireNonNull;

/**
 * One run of one job, read top-down: {@link #run()} finds the files by one of three plans (a copy's
 * {@link CopyCrawl}, a sync's {@link SyncRun}, a durable job's unit's {@link UnitPlan}), each of which
 * hands every file to {@link #schedule}: a virtual thread per range once a concurrency permit is free (small
 * quick files several to a thread and a permit, {@link FileBatches}), so enumeration never runs far ahead of
 * the transfer and memory stays flat whatever the tree's size.
 * Then it waits for the last file and finishes the sink. See {@link FileCopy} for what happens to one
 * file, and {@link FileOutcomes} for what the plans and files report back (outcomes, counters, failures).
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
    private final JobControls controls;
    private final FileOutcomes outcomes;
    private final ProgressTicker ticker;
    private final JobListener listener;
    private final Retries retries;
    private final DestinationChecks checks;
    private ExecutorService workers;
    /** Makes {@link #workers}: a virtual thread per task; tests give one that refuses tasks. */
    private final Supplier<ExecutorService> executors;
    /** The unit's entries when this run is a unit of a durable job; null when it crawls. */
    private final Manifest manifest;
    /** The sync's phases when this run is a sync job; null for copies and units. */
    private final SyncRun sync;
    /** Files started and not yet finished: a cancel aborts their writers at once. */
    private CancelAborts inFlight;
    /** Small files waiting for the rest of their batch (the plan's thread only). */
    private FileBatches batches;
    /** Set once the sink has declined a server-side copy from this source: every later file streams. */
    private volatile boolean serverSideCopyDeclined;

    /**
     * A unit's work: its entries in order, where outcomes go, and when to stop starting files. A unit that is the
     * whole job ({@code wholeJob}, a single stream's) has no entries: it crawls the source itself as a copy does, so
     * the job's list of entries is never held, in memory or in the store.
     */
    record Manifest(List<Entry> entries, FileReport.Listener reports, BooleanSupplier stopStarting, boolean wholeJob) {
    }

    /** Set when a unit stopped starting files before its last one (a graceful stop): the job is not ending. */
    private volatile boolean cutShort;

    TransferRun(PreparedJob job, Clock clock, JobListener listener, CancellationToken cancellation, JobControls controls) {
        this(job, clock, listener, cancellation, controls, null);
    }

    TransferRun(PreparedJob job, Clock clock, JobListener listener, CancellationToken cancellation, JobControls controls, Manifest manifest) {
        this(job, clock, listener, cancellation, controls, manifest, Executors::newVirtualThreadPerTaskExecutor);
    }

    TransferRun(PreparedJob job, Clock clock, JobListener listener, CancellationToken cancellation, JobControls controls, Manifest manifest,
            Supplier<ExecutorService> executors) {
        this.executors = requireNonNull(executors, "executors is null");
        this.manifest = manifest;
        this.job = requireNonNull(job, "job is null");
        this.options = job.options();
        this.clock = requireNonNull(clock, "clock is null");
        this.listener = requireNonNull(listener, "listener is null");
        this.cancellation = requireNonNull(cancellation, "cancellation is null");
        this.filter = new PathFilter(options.includes(), options.excludes());
        this.codecs = new CodecPool(job.codec(), zeroBlocks(job));
        io.mover.spi.Codec probe = job.codec().newCodec();
        this.pool = new BufferPool(options.bufferPoolBytes(), options.blockSize(), BlockCodec.encodedCapacity(probe, options.blockSize()));
        this.controls = requireNonNull(controls, "controls is null");
        this.outcomes = new FileOutcomes(counters, listener, Optional.ofNullable(manifest).map(Manifest::reports), controls::wake);
        job.suggestedConcurrency().ifPresent(s -> controls.suggest(s.files(), s.by(), pool.slots()));
        this.retries = new Retries(options, counters, this::stopped);
        this.checks = new DestinationChecks(this);
        this.ticker = new ProgressTicker(this, clock, listener, options.progressInterval());
        this.sync = manifest == null && job.spec().kind() == JobKind.SYNC ? new SyncRun(this) : null;
    }

    /**
     * Whether blocks of zeros go as a header alone (issue 5): to a link's far end only when it says it takes them
     * (an older receiver does not); in this process always, where they spare the CRC32C of zeros and let a sparse
     * sink leave a hole without reading the bytes again.
     */
    private static boolean zeroBlocks(PreparedJob job) {
        return job.sink().map(sink -> !(sink instanceof LinkSink link) || link.decodableCodecs().contains(BlockHeader.ZEROS)).orElse(true);
    }

    JobSummary run() {
        ticker.start();
        inFlight = new CancelAborts(cancellation);
        batches = new FileBatches(this, controls, manifest == null);
        Runnable unwake = cancellation.onCancel(controls::wake);
        try (ExecutorService executor = executors.get()) {
            workers = executor;
            runPlan();
            ticker.enumerationDone();
        }
        catch (MoverException e) {
            outcomes.jobFailed(e);
        }
        catch (RuntimeException e) {
            // a plan that does not catch what schedule() rethrows (a refused task): the job fails, its files accounted for
            outcomes.jobFailed(Retries.unexpected(e));
        }
        inFlight.close();
        unwake.run();
        if (sync != null) {
            sync.finish();
        }
        finishSink();
        if (sync != null) {
            sync.endCatalog();
        }
        ticker.stop();
        return ticker.finish();
    }

    /** The plan, then the files its last batch holds; those too when the plan fails (each file is accounted for). */
    private void runPlan() {
        try {
            if (sync != null) {
                sync.run();
            }
            else if (manifest == null || manifest.wholeJob()) {
                new CopyCrawl(this).run();
            }
            else {
                new UnitPlan(this, manifest).run();
            }
        }
        catch (RuntimeException | Error e) {
            try {
                batches.flush();
            }
            catch (RuntimeException | Error suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        batches.flush();
    }

    /**
     * The sink sends what it held back ({@link Sink#finish}, SPI 1.2), metered as COMMIT. Its failure
     * fails the job: nothing after it could report that the last bytes never left.
     */
    private void finishSink() {
        if (job.sink().isEmpty() || stopped() || cutShort) {
            return;
        }
        // the sink's finishing belongs to the files it committed: with none (a no-change sync) it is no stage's time,
        // or the summary named COMMIT, at 100 % of busy time, the bottleneck of a job that moved nothing
        boolean committed = meters.get(Stage.COMMIT).snapshot().operations() > 0;
        long start = System.nanoTime();
        try {
            job.sink().get().finish();
        }
        catch (MoverException e) {
            outcomes.jobFailed(e);
        }
        catch (RuntimeException e) {
            outcomes.jobFailed(Retries.unexpected(e));
        }
        finally {
            if (committed) {
                meters.get(Stage.COMMIT).busy(start, 0);
            }
        }
    }

    /**
     * Waits for a permit per range (the backpressure on the crawl, and where a pause holds new files
     * back), then starts each range on a virtual thread. A stopped job still runs each range without a
     * permit: the range sees the stop at once and the file is accounted for.
     */
    void schedule(FileCopy file) {
        inFlight.started(file);
        file.directoryOpened();
        if (batches.takes(file)) {
            batches.add(file);
            return;
        }
        batches.flush();
        boolean counted = false;
        for (int range = 0; range < file.ranges(); range++) {
            boolean permit = false;
            try {
                long start = System.nanoTime();
                permit = controls.acquire(range > 0, this::stopped);
                if (range == 0) {
                    // counted once it may start (a file held back by a pause is not half-written), still holding its permit
                    controls.fileStarted();
                    counted = true;
                }
                if (Thread.currentThread().isInterrupted()) {
                    cancellation.cancel();
                }
                meters.get(Stage.ENUMERATE).waited(start);
                start(file, range, permit);
            }
            catch (RuntimeException | Error e) {
                // this range and those after it never run (an executor that refused the task, no memory for a thread): the
                // file ends now, failed; otherwise it stayed open for good, its permit held, and a pause never showed PAUSED
                if (permit) {
                    controls.release();
                }
                if (!counted) {
                    controls.fileStarted();
                }
                file.rangesNotStarted(file.ranges() - range, e);
                throw e;
            }
        }
    }

    /** Starts a task on the run's workers (a batch of small files: {@link FileBatches}). */
    void execute(Runnable task) {
        workers.execute(task);
    }

    /** The plan's thread was interrupted while it waited for a permit: that cancels the job. */
    void cancelIfInterrupted() {
        if (Thread.currentThread().isInterrupted()) {
            cancellation.cancel();
        }
    }

    private void start(FileCopy file, int range, boolean permit) {
        workers.execute(() -> {
            try {
                file.runRange(range);
            }
            finally {
                if (permit) {
                    controls.release();
                }
            }
        });
    }

    /** The file has ended (committed, failed, skipped or aborted). */
    void fileEnded(FileCopy file) {
        inFlight.ended(file);
        controls.fileEnded();
    }

    void symlink(Entry entry) {
        if (options.symlinks() != SymlinkPolicy.PRESERVE || entry.attributes().symlinkTarget().isEmpty()) {
            outcomes.entrySkipped(entry, "symbolic link not preserved");
            return;
        }
        if (options.dryRun()) {
            outcomes.plannedCopy(entry, entry.path());
            return;
        }
        try {
            ((SymbolicLinks) sink()).createSymbolicLink(entry.path(), entry.attributes().symlinkTarget().get());
            outcomes.linkCreated(entry);
        }
        catch (MoverException e) {
            outcomes.fileFailed(entry.path(), e, 1);
        }
    }

    /** A sync has listed and compared both sides: the totals are known. */
    void planned() {
        ticker.enumerationDone();
    }

    /** Waits until {@code bytes} fit under the job's bandwidth cap (metered as waiting to WRITE). */
    void throttle(int bytes) {
        long start = System.nanoTime();
        if (controls.throttle(bytes, this::stopped) > 0) {
            meters.get(Stage.WRITE).waited(start);
        }
    }

    /** RUNNING, or PAUSED once a pause was asked for and nothing is in flight. */
    JobState liveState() {
        return controls.drained() ? JobState.PAUSED : JobState.RUNNING;
    }

    void cutShort() {
        cutShort = true;
    }

    /** For a crawl that is a unit: whether the unit asked to stop starting files; then the run is cut short. */
    boolean stopStarting() {
        if (manifest != null && manifest.stopStarting().getAsBoolean()) {
            cutShort = true;
        }
        return cutShort;
    }

    boolean wasCutShort() {
        return cutShort;
    }

    boolean stopped() {
        return cancellation.isCancelled() || outcomes.failed();
    }

    void logWarning(String message) {
        LOG.log(System.Logger.Level.WARNING, message);
    }

    /**
     * The sink's server-side copy, when this job may use it: the bytes would not pass through the
     * engine, so only where nothing needs them here (no codec asked for, no block checksums kept for
     * {@code --verify}, a real run) and until the sink has declined once.
     */
    Optional<ServerSideCopy> serverSideCopy() {
        // under a bandwidth cap the bytes must pass here, where the cap is applied
        if (serverSideCopyDeclined || options.dryRun() || options.verify() || !job.codec().choice().isNone() || controls.bandwidthCap() > 0) {
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

    Optional<SyncReport> syncReport() { return sync == null ? Optional.empty() : sync.report(); }
    JobListener listener() { return listener; }
    TransferOptions options() { return options; }
    Retries retries() { return retries; }
    DestinationChecks checks() { return checks; }
    Source source() { return job.source(); }
    Sink sink() { return job.sink().orElseThrow(() -> new IllegalStateException("a dry run has no sink")); }
    StageMeter meter(Stage stage) { return meters.get(stage); }
    JobMeters meters() { return meters; }
    JobCounters counters() { return counters; }
    BufferPool pool() { return pool; }
    JobControls controls() { return controls; }
    CodecPool codecs() { return codecs; }
    BlockTransport transport() { return BlockTransport.IN_PROCESS; }
    PreparedJob job() { return job; }
    PathFilter filter() { return filter; }
    Optional<MoverException> fatal() { return outcomes.fatal(); }
    FileOutcomes outcomes() { return outcomes; }
    boolean cancelled() { return cancellation.isCancelled(); }
    Instant now() { return clock.instant(); }
}
