package io.mover.core.engine;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.mover.spi.Entry;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.RelativePath;
import io.mover.spi.ServerSideCopy;
import io.mover.spi.SinkWriter;
import io.mover.spi.SourceReader;

import static java.util.Objects.requireNonNull;

/**
 * One file on its way: split into ranges that run in parallel (one range for a small file), sharing one
 * reader and one writer. The first range to start opens both; the last to end commits or aborts, so
 * the file appears whole or not at all.
 */
final class FileCopy {
    private final TransferRun run;
    private final Entry entry;
    private final RelativePath target;
    private final DirectoryNode directory;
    private final long rangeSize;
    private final int ranges;
    private final AtomicInteger rangesLeft;
    /** Block checksums by block index, kept only for {@code --verify}. */
    private final int[] blockCrcs;
    private final BlockMove blocks;
    private final AtomicReference<MoverException> failure = new AtomicReference<>();
    /** The most attempts any range of this file needed, for the failure report. */
    private final AtomicInteger attempts = new AtomicInteger(1);
    private final Object openLock = new Object();
    private boolean opened;
    /** Under {@code openLock}: the commit has started (a cancel no longer aborts), or a cancel aborted the writer. */
    private boolean committing;
    private volatile boolean abortedOnCancel;
    private volatile boolean skipped;
    private volatile SourceReader reader;
    private volatile SinkWriter writer;
    /** The sink copies this file by itself (a kernel or service-side copy), as one range. */
    private final Optional<ServerSideCopy> serverSide;
    private volatile boolean copiedServerSide;
    /** Under {@code openLock}: the thread in the sink's own copy, which a cancel interrupts (SPI 1.5). */
    private Thread copyingServerSide;
    /** Under {@code openLock}: a cancel interrupted {@code copyingServerSide}, so its flag is ours to clear. */
    private boolean interruptedOnCancel;

    FileCopy(TransferRun run, Entry entry, RelativePath target, DirectoryNode directory) {
        this.run = requireNonNull(run, "run is null");
        this.entry = requireNonNull(entry, "entry is null");
        this.target = requireNonNull(target, "target is null");
        this.directory = requireNonNull(directory, "directory is null");
        TransferOptions options = run.options();
        this.serverSide = run.serverSideCopy();
        this.rangeSize = entry.size() >= options.largeFileThreshold() && serverSide.isEmpty() ? options.rangeSize() : Math.max(1, entry.size());
        this.ranges = (int) Math.max(1, (entry.size() + rangeSize - 1) / rangeSize);
        this.rangesLeft = new AtomicInteger(ranges);
        this.blockCrcs = options.verify() ? new int[(int) ((entry.size() + options.blockSize() - 1) / options.blockSize())] : null;
        this.blocks = new BlockMove(run, blockCrcs);
    }

    int ranges() {
        return ranges;
    }

    long size() {
        return entry.size();
    }

    /** Called once before the first range is scheduled: the file is now open inside its directory. */
    void directoryOpened() {
        directory.opened();
    }

    /** Moves range {@code index}; the range that ends last finishes the file. Never throws. */
    void runRange(int index) {
        try {
            if (begin()) {
                if (serverSide.isPresent()) {
                    run.retries().call(this::copyServerSide, attempts);
                }
                else {
                    long start = index * rangeSize;
                    long end = Math.min(entry.size(), start + rangeSize);
                    run.retries().call(() -> copyRange(start, end), attempts);
                }
            }
        }
        catch (MoverException e) {
            failure.compareAndSet(null, e);
        }
        catch (RuntimeException e) {
            failure.compareAndSet(null, Retries.unexpected(e));
        }
        catch (Error e) {
            // the file fails: committed without this range's bytes, it would land with a hole; the error still ends the thread
            failure.compareAndSet(null, Retries.unexpected(e));
            throw e;
        }
        finally {
            if (rangesLeft.decrementAndGet() == 0) {
                finish();
            }
        }
    }

    /** {@code count} ranges, the last ones, will never run (no thread took them): the file fails, and ends once its running ranges have. */
    void rangesNotStarted(int count, Throwable cause) {
        failure.compareAndSet(null, cause instanceof RuntimeException e ? Retries.unexpected(e) : Retries.unexpected((Error) cause));
        if (rangesLeft.addAndGet(-count) == 0) {
            finish();
        }
    }

    /** Opens reader and writer once, or decides to skip; false when there is nothing to copy. */
    private boolean begin() {
        synchronized (openLock) {
            if (!opened) {
                opened = true;
                skipped = !run.checks().shouldCopy(entry, target);
                if (!skipped && !run.options().dryRun() && serverSide.isEmpty()) {
                    open();
                }
            }
        }
        return !skipped && !run.options().dryRun() && failure.get() == null && !run.stopped();
    }

    private void open() {
        reader = run.retries().call(() -> {
            long start = System.nanoTime();
            SourceReader opened = run.source().open(entry.path());
            run.meter(Stage.READ).busy(start, 0);
            if (opened.size() != entry.size()) {
                opened.close();
                throw new MoverException(ErrorCode.SOURCE_CHANGED, "size changed from " + entry.size() + " to " + opened.size() + " since it was listed");
            }
            return opened;
        });
        writer = run.retries().call(() -> {
            long start = System.nanoTime();
            SinkWriter created = run.sink().create(target, entry.size(), entry);
            run.meter(Stage.WRITE).busy(start, 0);
            return created;
        });
    }

    /**
     * The whole file by the sink's own copy, committed when it returns; metered as WRITE, the stage that
     * does the work. When the sink declines this pair of endpoints, the file streams like any other.
     */
    private Void copyServerSide() {
        long start = System.nanoTime();
        Optional<Entry> copied = copyBySink();
        if (copied.isPresent()) {
            run.meter(Stage.WRITE).busy(start, entry.size());
            run.counters().bytesMoved.add(entry.size());
            copiedServerSide = true;
            return null;
        }
        run.serverSideCopyDeclined();
        synchronized (openLock) {
            if (writer == null) {
                open();
            }
        }
        return copyRange(0, entry.size());
    }

    /**
     * The sink's own copy, on this thread, which a cancel interrupts: a copy of many gigabytes in the kernel or
     * on a service stops then, instead of holding the cancel until it ends.
     */
    private Optional<Entry> copyBySink() {
        synchronized (openLock) {
            // stopped() too: a cancel that came before this thread was set found nothing to interrupt (the token is
            // marked before its aborts run, so one of the two sees the other)
            if (abortedOnCancel || run.stopped()) {
                throw new MoverException(ErrorCode.CANCELLED, "stopped");
            }
            copyingServerSide = Thread.currentThread();
        }
        try {
            // asked again now: the sink may have declined for another file since this one was planned
            return run.serverSideCopy().flatMap(sink -> sink.copyFrom(run.source(), entry, target));
        }
        finally {
            synchronized (openLock) {
                copyingServerSide = null;
                if (interruptedOnCancel) {
                    // the interrupt was for this copy alone: it must not end this thread's next wait
                    Thread.interrupted();
                }
            }
        }
    }

    /** READ → ENCODE → SEND → DECODE → WRITE for each block of {@code [start, end)}. */
    private Void copyRange(long start, long end) {
        int blockSize = run.options().blockSize();
        long moved = 0;
        try {
            for (long position = start; position < end; position += blockSize) {
                if (run.stopped() || failure.get() != null) {
                    throw new MoverException(ErrorCode.CANCELLED, "stopped");
                }
                int length = (int) Math.min(blockSize, end - position);
                moved += blocks.move(reader, writer, position, length);
            }
            moved = 0;
            return null;
        }
        finally {
            // a failed attempt's bytes will be moved again: progress must not count them twice
            run.counters().bytesMoved.add(-moved);
        }
    }

    private void finish() {
        try {
            MoverException error = failure.get();
            if (skipped) {
                run.outcomes().fileSkipped(entry);
            }
            else if (run.options().dryRun()) {
                run.outcomes().plannedCopy(entry, target);
            }
            else if (error == null && copiedServerSide) {
                run.outcomes().fileCommitted(entry, attempts.get());
            }
            else if (error == null && !run.stopped() && startCommit()) {
                commit();
            }
            else {
                abortQuietly();
                if (error != null && !(error.code() == ErrorCode.CANCELLED && run.stopped()) && !abortedOnCancel) {
                    run.outcomes().fileFailed(entry.path(), error, attempts.get());
                }
            }
        }
        catch (RuntimeException e) {
            abortQuietly();
            run.outcomes().fileFailed(entry.path(), Retries.unexpected(e), 1);
        }
        finally {
            try {
                closeReader();
                directory.closed();
            }
            finally {
                // whatever the folder's completion throws: a file never ended keeps a paused job from PAUSED
                run.fileEnded(this);
            }
        }
    }

    private boolean startCommit() {
        synchronized (openLock) {
            committing = !abortedOnCancel;
            return committing;
        }
    }

    /**
     * The job was cancelled: aborts the writer from the cancelling side, so that writes blocked in the plugin (a
     * throttled request waiting out its Retry-After) fail at once, as {@link SinkWriter#abort()} promises. Never once
     * the commit has started: a file then lands whole or not at all by its own path. A sink's own copy under way is
     * interrupted instead ({@link ServerSideCopy#copyFrom}).
     */
    void abortOnCancel() {
        SourceReader r = reader;
        if (r != null) {
            try {
                r.abort();   // a read waiting out a throttled service ends now, not after its back-off
            }
            catch (RuntimeException e) {
                run.logWarning("could not abort the read of " + entry.path() + ": " + e.getMessage());
            }
        }
        SinkWriter w;
        synchronized (openLock) {
            if (copyingServerSide != null) {
                abortedOnCancel = true;
                interruptedOnCancel = true;
                copyingServerSide.interrupt();
                return;
            }
            if (committing || writer == null) {
                return;
            }
            abortedOnCancel = true;
            w = writer;
        }
        try {
            w.abort();
        }
        catch (RuntimeException e) {
            run.logWarning("could not abort the write of " + target + ": " + e.getMessage());
        }
    }

    /** Commits and, with {@code --verify}, reads back; a retryable failure copies the whole file again. */
    private void commit() {
        int attempt = 0;
        while (true) {
            try {
                long start = System.nanoTime();
                writer.commit();
                run.meter(Stage.COMMIT).busy(start, 0);
                if (blockCrcs != null) {
                    run.checks().verify(target, entry.size(), blockCrcs);
                }
                run.outcomes().fileCommitted(entry, attempts.get());
                return;
            }
            catch (MoverException e) {
                abortQuietly();
                if (!e.isRetryable() || attempt >= run.options().maxRetries() || run.stopped()) {
                    if (e.code() == ErrorCode.CHECKSUM_MISMATCH && blockCrcs != null) {
                        run.checks().removeQuietly(target);
                    }
                    run.outcomes().fileFailed(entry.path(), e, attempts.get() + attempt);
                    return;
                }
                run.retries().backoff(attempt++);
                run.counters().bytesMoved.add(-entry.size());
                writer = run.sink().create(target, entry.size(), entry);
                copyRange(0, entry.size());
            }
        }
    }

    private void abortQuietly() {
        SinkWriter w = writer;
        if (w != null) {
            try {
                w.abort();
            }
            catch (RuntimeException e) {
                run.logWarning("could not abort the write of " + target + ": " + e.getMessage());
            }
        }
    }

    private void closeReader() {
        SourceReader r = reader;
        if (r != null) {
            try {
                r.close();
            }
            catch (RuntimeException e) {
                run.logWarning("could not close " + entry.path() + ": " + e.getMessage());
            }
        }
    }

    Optional<MoverException> failure() {
        return Optional.ofNullable(failure.get());
    }
}
