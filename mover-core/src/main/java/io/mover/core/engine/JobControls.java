package io.mover.core.engine;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

/**
 * The live knobs of one job, turned from outside while it runs: pause and resume, concurrency, and the
 * bandwidth cap. Thread-safe. The run asks for a permit before each file (and each range of a large
 * file); a permit is refused while the job is paused or at its concurrency limit, so pausing and
 * shrinking never interrupt work in flight, they only stop new work from starting. Ranges of a file
 * that has already started are let through a pause, so a paused job holds no half-written file open.
 */
public final class JobControls {
    /** The largest cap accepted: 1 TiB/s, well above any link; larger values are typos. */
    public static final long MAX_BANDWIDTH_CAP = 1L << 40;
    /** The smallest cap accepted: 1 KiB/s; below that a single block would wait for minutes. */
    public static final long MIN_BANDWIDTH_CAP = 1024;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final Throttle throttle;
    private int limit;
    /** Where {@link #limit} came from: {@link #SET}, {@link #DEFAULT}, or "chosen by PLUGIN". */
    private String origin;
    private int inFlight;
    private int maxInFlight;
    /**
     * Files started and not yet ended. Apart from {@link #inFlight}: a large file's ranges each take a permit, and
     * between one range's release and the next one's permit a file is still half-written with no permit held.
     */
    private final AtomicInteger filesOpen = new AtomicInteger();
    /** Written under the lock; read without it between the files of a batch ({@link FileBatches}), once a file. */
    private volatile boolean paused;

    /** The concurrency's origin when the user gave it (a flag, a job's options, a change while it runs). */
    public static final String SET = "set";
    /** The concurrency's origin when nobody gave one and no endpoint suggested one. */
    public static final String DEFAULT = "default";

    /** Controls with a concurrency the user gave: no endpoint's suggestion replaces it. */
    public JobControls(int concurrency, long bandwidthCap) {
        this(concurrency, bandwidthCap, SET);
    }

    private JobControls(int concurrency, long bandwidthCap, String origin) {
        checkConcurrency(concurrency);
        checkBandwidthCap(bandwidthCap);
        this.limit = concurrency;
        this.origin = origin;
        this.throttle = new Throttle(bandwidthCap);
    }

    /** Controls starting from what the job was submitted with; an unset concurrency may be {@linkplain #suggest suggested}. */
    public static JobControls of(TransferOptions options) {
        return new JobControls(options.concurrency(), options.bandwidthCap(), options.concurrencySet() ? SET : DEFAULT);
    }

    /**
     * Takes an endpoint's suggested files in flight ({@link io.mover.spi.FilesInFlight}) unless the user set the
     * concurrency. Bounded to 1..{@value TransferOptions#MAX_CONCURRENCY}, and above the default to the buffer pool's
     * {@code bufferSlots}: every file in flight holds a block buffer while it reads or writes, so files beyond the
     * pool's blocks would only wait for one, and the pool's cap (the job's memory) stays what it was. Runs of one job
     * (a durable job's units) may suggest again; the same figures give the same value.
     *
     * @param by the plugin that suggested, shown as "chosen by {@code by}"
     */
    public void suggest(int files, String by, int bufferSlots) {
        int bounded = Math.clamp(files, 1, TransferOptions.MAX_CONCURRENCY);
        if (bounded > TransferOptions.DEFAULT_CONCURRENCY) {
            bounded = Math.max(TransferOptions.DEFAULT_CONCURRENCY, Math.min(bounded, bufferSlots));
        }
        int value = bounded;
        String chosen = "chosen by " + by + (value < Math.min(files, TransferOptions.MAX_CONCURRENCY) ? ", bounded by the buffer pool's "
                + bufferSlots + " blocks" : "");
        withLock(() -> {
            if (!origin.equals(SET)) {
                limit = value;
                origin = chosen;
            }
        });
    }

    /** Where the concurrency came from: {@value #SET}, {@value #DEFAULT}, or "chosen by PLUGIN". */
    public String concurrencyOrigin() {
        return read(() -> origin);
    }

    /** The concurrency with where it came from, as shown to users: "64 (chosen by azure-files)". */
    public String concurrencyText() {
        return read(() -> limit + " (" + origin + ")");
    }

    /** Stops new files from starting; those in flight finish. Idempotent. */
    public void pause() {
        withLock(() -> paused = true);
    }

    /** Lets new files start again. Idempotent. */
    public void resume() {
        withLock(() -> paused = false);
    }

    /** Whether a pause was asked for (the job is PAUSED once {@link #drained()}). */
    public boolean pauseRequested() {
        return paused;
    }

    /** Paused with nothing in flight and no file half-written: what the job reports as {@link JobState#PAUSED}. */
    public boolean drained() {
        return read(() -> paused && inFlight == 0 && filesOpen.get() == 0);
    }

    /** A file's first range got its permit (or the job stopped); {@link #fileEnded} follows once it is committed, failed or aborted. */
    void fileStarted() {
        filesOpen.incrementAndGet();
    }

    void fileEnded() {
        filesOpen.decrementAndGet();
    }

    /** Changes how many files (or ranges) may be in flight; running ones are never interrupted. */
    public void concurrency(int value) {
        checkConcurrency(value);
        withLock(() -> {
            limit = value;
            origin = SET;
        });
    }

    public int concurrency() {
        return read(() -> limit);
    }

    /** Files (or ranges) in flight now. */
    public int inFlight() {
        return read(() -> inFlight);
    }

    /** The most files (or ranges) that were in flight at once since the job started. */
    public int maxInFlight() {
        return read(() -> maxInFlight);
    }

    /** Bytes per second across all of the job's workers; 0 lifts the cap. */
    public void bandwidthCap(long bytesPerSecond) {
        checkBandwidthCap(bytesPerSecond);
        throttle.rate(bytesPerSecond);
    }

    public long bandwidthCap() {
        return throttle.rate();
    }

    public static void checkConcurrency(int value) {
        if (value < 1 || value > TransferOptions.MAX_CONCURRENCY) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT,
                    "invalid concurrency " + value + ": must be between 1 and " + TransferOptions.MAX_CONCURRENCY);
        }
    }

    public static void checkBandwidthCap(long value) {
        if (value != 0 && (value < MIN_BANDWIDTH_CAP || value > MAX_BANDWIDTH_CAP)) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "invalid bandwidth cap " + value
                    + " bytes/s: must be 0 (no cap) or between " + MIN_BANDWIDTH_CAP + " (1 KiB/s) and " + MAX_BANDWIDTH_CAP + " (1 TiB/s)");
        }
    }

    /**
     * Waits for a permit. {@code continuing} is true for a later range of a file already started, which a
     * pause does not hold back.
     *
     * @return true with a permit (give it back with {@link #release()}); false when {@code stopped}
     *         turned true first (no permit held)
     */
    boolean acquire(boolean continuing, BooleanSupplier stopped) {
        lock.lock();
        try {
            while ((paused && !continuing) || inFlight >= limit) {
                if (stopped.getAsBoolean()) {
                    return false;
                }
                // untimed: a timed wait on a virtual thread is a timer armed and cancelled per file (the crawler waits
                // here once a file when the window is full); whatever may end the wait signals: a release, a resize,
                // a resume, and the run's cancel or fatal error (wake)
                changed.await();
            }
            inFlight++;
            maxInFlight = Math.max(maxInFlight, inFlight);
            return true;
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        finally {
            lock.unlock();
        }
    }

    void release() {
        withLock(() -> inFlight--);
    }

    /** Wakes waiters in {@link #acquire} to look at their {@code stopped} condition again. */
    void wake() {
        withLock(() -> { });
    }

    /** Waits until {@code bytes} fit under the cap; returns the nanoseconds waited. */
    long throttle(int bytes, BooleanSupplier stopped) {
        return throttle.acquire(bytes, stopped);
    }

    private void withLock(Runnable change) {
        lock.lock();
        try {
            change.run();
            changed.signalAll();
        }
        finally {
            lock.unlock();
        }
    }

    private <T> T read(java.util.function.Supplier<T> value) {
        lock.lock();
        try {
            return value.get();
        }
        finally {
            lock.unlock();
        }
    }
}
