package io.mover.plugins.tcp.tar;

import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

import static java.util.Objects.requireNonNull;

/**
 * One tar stream on one connection. A tar stream is a sequence (each entry's header, its bytes, the next
 * entry), while the engine writes many files at once and a large file in ranges on several threads. So
 * writers only hand blocks over, copied into a bounded buffer, and one pump thread writes the entries in
 * the order their writers were created, each entry's bytes in order, into the archive. Writers wait only
 * when the buffer is full (the compressors or the connection set the pace); the block the pump needs next
 * is always taken, so the pump never waits for room it holds itself.
 *
 * <p>A file's commit returns once its blocks are all handed over; {@link #finish} (the sink's, when the job
 * ends) waits until the connection took everything, so a job does not succeed before its bytes left. A stream cannot
 * take bytes back: a file that fails after its entry started breaks the stream for good ({@link #fail}):
 * the connection is reset, so the far side's tar reports a truncated archive instead of extracting a wrong
 * file, and every later call fails with {@link ErrorCode#PLUGIN_FAILED}, which stops the job. Thread-safe.
 */
final class TarStream {
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    private final Socket socket;
    private final String where;
    private final FrameOutputStream frames;
    private final TarArchiveOutputStream archive;
    private final long timeoutNanos;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    /** Entries not yet written whole, in the order of their writers' creation. */
    private final ArrayDeque<Pending> order = new ArrayDeque<>();
    private final AtomicReference<MoverException> broken = new AtomicReference<>();
    private final Thread pump;
    private long bufferLeft;
    private boolean finishing;
    /** When the pump last moved a byte, for the no-progress timeout. */
    private long progressNanos = System.nanoTime();
    /** Time writers waited for room in the buffer. */
    final LongAdder waitNanos = new LongAdder();

    TarStream(Socket socket, String where, FrameOutputStream frames, Duration timeout, long bufferBytes) {
        this.socket = requireNonNull(socket, "socket is null");
        this.where = requireNonNull(where, "where is null");
        this.frames = requireNonNull(frames, "frames is null");
        this.timeoutNanos = timeout.toNanos();
        this.bufferLeft = bufferBytes;
        // records go straight through (no 10 KiB block held back): what the pump wrote is in the frames
        this.archive = new TarArchiveOutputStream(frames, 512, "UTF-8");
        archive.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
        archive.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
        archive.setAddPaxHeadersForNonAsciiNames(true);
        this.pump = Thread.ofPlatform().daemon().name("mover-tar-pump").start(this::pump);
    }

    /** An entry, placed after every entry opened before it. Its header goes out with its first byte (or its commit, when empty). */
    Pending open(TarArchiveEntry header) {
        lock.lock();
        try {
            throwIfBroken();
            Pending entry = new Pending(header);
            if (order.isEmpty()) {
                // the pump's no-progress clock starts with the entry it will wait for
                progressNanos = System.nanoTime();
            }
            order.addLast(entry);
            changed.signalAll();
            return entry;
        }
        finally {
            lock.unlock();
        }
    }

    /** Hands over a copy of {@code source}, the bytes at {@code position} of {@code entry}; waits while the buffer is full. */
    void write(Pending entry, long position, ByteBuffer source) {
        int length = source.remaining();
        long start = System.nanoTime();
        lock.lock();
        try {
            while (true) {
                throwIfBroken();
                if (entry.aborted || entry.committed) {
                    throw new MoverException(ErrorCode.CANCELLED, "the write of " + entry.name + " was " + (entry.aborted ? "aborted" : "committed"));
                }
                if (position < entry.written) {
                    throw failLocked(entry.name + " was written again from byte " + position + " after " + entry.written
                            + " bytes had been sent, and a tar stream cannot go back");
                }
                // the block the pump waits for is always taken: room is made by writing it
                boolean next = order.peekFirst() == entry && position == entry.written;
                if (bufferLeft >= length || next) {
                    break;
                }
                changed.awaitNanos(POLL_NANOS);
            }
            byte[] copy = new byte[length];
            source.get(copy);
            byte[] replaced = entry.blocks.put(position, copy);
            bufferLeft -= length - (replaced == null ? 0 : replaced.length);
            changed.signalAll();
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MoverException(ErrorCode.CANCELLED, "interrupted while " + entry.name + " waited to be sent");
        }
        finally {
            lock.unlock();
            waitNanos.add(System.nanoTime() - start);
        }
    }

    /** Every byte of {@code entry} was handed over; the pump ends the entry once it wrote them. Returns at once. */
    void commit(Pending entry) {
        lock.lock();
        try {
            throwIfBroken();
            long have = entry.written;
            for (Map.Entry<Long, byte[]> block : entry.blocks.entrySet()) {
                if (block.getKey() == have) {
                    have += block.getValue().length;
                }
            }
            if (have != entry.size) {
                // the header announces the size: an entry cut short would shift every later one
                abortLocked(entry);
                throw new MoverException(ErrorCode.INTERNAL, entry.name + " was committed with " + have + " of its " + entry.size + " bytes");
            }
            entry.committed = true;
            changed.signalAll();
        }
        finally {
            lock.unlock();
        }
    }

    /**
     * The writer gave up. Before its header went out the entry is left out; after, the stream breaks.
     * Idempotent, from any thread (a writer waiting for room wakes up).
     */
    void abort(Pending entry) {
        lock.lock();
        try {
            abortLocked(entry);
        }
        finally {
            lock.unlock();
        }
    }

    private void abortLocked(Pending entry) {
        if (entry.aborted || entry.done) {
            return;
        }
        entry.aborted = true;
        for (byte[] block : entry.blocks.values()) {
            bufferLeft += block.length;
        }
        entry.blocks.clear();
        if (entry.started) {
            failLocked(entry.name + " was aborted after its entry had started");
        }
        changed.signalAll();
    }

    /** The pump: entries in order, each one's bytes in order, until {@link #finish} or a failure. */
    private void pump() {
        try {
            while (true) {
                Step step = nextStep();
                if (step == null) {
                    return;
                }
                step.run();
            }
        }
        catch (IOException | RuntimeException e) {
            fail("the archive could not be written", e);
        }
    }

    /** What the pump does next, decided under the lock and done outside it; null when the stream is finished. */
    private Step nextStep() throws IOException {
        lock.lock();
        try {
            while (true) {
                if (broken.get() != null) {
                    return null;
                }
                Pending head = order.peekFirst();
                if (head == null && finishing) {
                    return null;
                }
                if (head != null && head.aborted) {
                    order.removeFirst();
                    changed.signalAll();
                    continue;
                }
                if (head != null) {
                    byte[] block = head.blocks.remove(head.written);
                    if (block != null || (head.committed && head.written == head.size)) {
                        // counted as written once taken: the bytes are on their way, and nothing can put them back
                        head.written += block == null ? 0 : block.length;
                        return step(head, block);
                    }
                }
                if (head != null && System.nanoTime() - progressNanos > timeoutNanos) {
                    throw failLocked("nothing of " + head.name + " arrived for " + TimeUnit.NANOSECONDS.toSeconds(timeoutNanos)
                            + " s, and a tar stream cannot skip ahead");
                }
                changed.awaitNanos(POLL_NANOS);
            }
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
        finally {
            lock.unlock();
        }
    }

    private Step step(Pending head, byte[] block) {
        boolean header = !head.started;
        head.started = true;
        if (block == null) {
            // committed whole: the entry ends
            return () -> {
                if (header) {
                    archive.putArchiveEntry(head.header);
                }
                archive.closeArchiveEntry();
                long end = frames.position();
                finished(head, end);
            };
        }
        return () -> {
            if (header) {
                archive.putArchiveEntry(head.header);
            }
            archive.write(block);
            moved(block.length);
        };
    }

    private void moved(int length) {
        lock.lock();
        try {
            bufferLeft += length;
            progressNanos = System.nanoTime();
            changed.signalAll();
        }
        finally {
            lock.unlock();
        }
    }

    private void finished(Pending head, long end) {
        lock.lock();
        try {
            head.end = end;
            head.done = true;
            order.remove(head);
            progressNanos = System.nanoTime();
            changed.signalAll();
        }
        finally {
            lock.unlock();
        }
    }

    /**
     * After the last file: lets the pump write what is left, then tar's end-of-archive records, sends
     * everything and half-closes the connection. Bounded: the pump and the connection each fail after the
     * timeout without progress.
     *
     * @throws MoverException PLUGIN_FAILED (the stream broke: the archive did not arrive whole)
     */
    void finish() {
        lock.lock();
        try {
            finishing = true;
            changed.signalAll();
        }
        finally {
            lock.unlock();
        }
        try {
            while (pump.isAlive()) {
                frames.checkStall();
                pump.join(Duration.ofNanos(POLL_NANOS));
            }
            throwIfBroken();
            archive.finish();
            frames.close();
            socket.shutdownOutput();
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw fail("interrupted while the end of the archive was sent", null);
        }
        catch (IOException e) {
            throw fail("the end of the archive could not be sent", e);
        }
    }

    /**
     * Breaks the stream for good: resets the connection (the far side sees a truncated archive) and
     * returns the error every later call throws. The first reason is kept.
     */
    MoverException fail(String reason, Throwable cause) {
        lock.lock();
        try {
            return failLocked(reason + (cause == null ? "" : ": " + (cause.getMessage() == null ? cause.toString() : cause.getMessage())));
        }
        finally {
            lock.unlock();
        }
    }

    private MoverException failLocked(String reason) {
        MoverException error = new MoverException(ErrorCode.PLUGIN_FAILED, "the tar stream to " + where + " broke (" + reason
                + "); the receiver has an incomplete archive, and its tar reports it; run the copy again");
        if (broken.compareAndSet(null, error)) {
            frames.abort(reason);
            TarInterop.resetQuietly(socket);
            changed.signalAll();
        }
        return broken.get();
    }

    /** Whether the entry's header went out (tests wait for it). */
    boolean started(Pending entry) {
        lock.lock();
        try {
            return entry.started;
        }
        finally {
            lock.unlock();
        }
    }

    boolean isBroken() {
        return broken.get() != null;
    }

    FrameOutputStream frames() {
        return frames;
    }

    void closeSocket() {
        try {
            socket.close();
        }
        catch (IOException e) {
            // nothing more to send or to learn
        }
    }

    private void throwIfBroken() {
        MoverException error = broken.get();
        if (error != null) {
            throw error;
        }
    }

    /** A pump action done outside the lock. */
    private interface Step {
        void run() throws IOException;
    }

    /** One entry on its way; every field but the header changes under the stream's lock. */
    static final class Pending {
        final TarArchiveEntry header;
        final String name;
        final long size;
        /** Blocks handed over and not yet written, by position. */
        final TreeMap<Long, byte[]> blocks = new TreeMap<>();
        /** Bytes the pump took to write into the archive. */
        long written;
        /** Its header went out: aborting now breaks the stream. */
        boolean started;
        boolean committed;
        boolean aborted;
        boolean done;
        /** Where the stream was after the entry, once done. */
        long end;

        Pending(TarArchiveEntry header) {
            this.header = header;
            this.name = header.getName();
            this.size = header.getSize();
        }
    }
}
