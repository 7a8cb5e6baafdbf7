package io.mover.plugins.tcp.tar;

import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

import static java.util.Objects.requireNonNull;

/**
 * One tar stream on one connection, written by many engine threads in turns. A tar stream is a sequence:
 * each entry's header, then its bytes, then the next entry. So every entry takes a ticket when its writer
 * is created, and writes when its ticket is served and the bytes before its position are written (the
 * ranges of a large file arrive on several threads). The engine gives permits to a file's ranges in
 * order, so the served entry's first unwritten range always runs, and the turns always move on.
 *
 * <p>A stream cannot take bytes back: a file that fails after some of its bytes were sent breaks the
 * stream for good ({@link #fail}): the connection is reset, so the far side's tar reports a truncated
 * archive instead of extracting a wrong file, and every later call fails with {@link ErrorCode#PLUGIN_FAILED},
 * which stops the job. Thread-safe.
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
    private final Set<Long> releasedEarly = new HashSet<>();
    private final AtomicReference<MoverException> broken = new AtomicReference<>();
    /** Copies a direct buffer's bytes out; used by the turn holder only. */
    private final byte[] scratch = new byte[64 * 1024];
    private long issued;
    private long serving = 1;
    /** Bytes of the served entry written so far. */
    private long written;
    private long progressNanos = System.nanoTime();

    TarStream(Socket socket, String where, FrameOutputStream frames, Duration timeout) {
        this.socket = requireNonNull(socket, "socket is null");
        this.where = requireNonNull(where, "where is null");
        this.frames = requireNonNull(frames, "frames is null");
        this.timeoutNanos = timeout.toNanos();
        // records go straight through (no 10 KiB block buffered): a committed file's bytes must reach the frames
        this.archive = new TarArchiveOutputStream(frames, 512, "UTF-8");
        archive.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
        archive.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
        archive.setAddPaxHeadersForNonAsciiNames(true);
    }

    /** A place in the order of entries. */
    long ticket() {
        lock.lock();
        try {
            throwIfBroken();
            return ++issued;
        }
        finally {
            lock.unlock();
        }
    }

    /** For {@link #awaitTurn}: any number of bytes written will do (a commit checks the count itself). */
    static final long ANY = -1;

    /**
     * Waits until {@code ticket} is served and its entry has {@code position} bytes written (or any, with
     * {@link #ANY}), then marks {@code turn} started (from then on, aborting it breaks the stream).
     *
     * @return the bytes of the entry written so far
     *
     * @throws MoverException CANCELLED when the turn was aborted, TIMEOUT when the stream made no progress
     *         for the timeout, PLUGIN_FAILED when the stream broke
     */
    long awaitTurn(long ticket, long position, Turn turn) {
        lock.lock();
        try {
            while (true) {
                throwIfBroken();
                if (turn.aborted) {
                    throw new MoverException(ErrorCode.CANCELLED, "the write of " + turn.name + " was aborted");
                }
                if (serving == ticket && (written == position || position == ANY)) {
                    turn.started = true;
                    return written;
                }
                if (serving == ticket && written > position) {
                    throw fail(turn.name + " was written again from byte " + position + " after " + written + " bytes had been sent, and a tar stream cannot go back", null);
                }
                if (System.nanoTime() - progressNanos > timeoutNanos) {
                    throw new MoverException(ErrorCode.TIMEOUT, "the tar stream to " + where + " made no progress for "
                            + TimeUnit.NANOSECONDS.toSeconds(timeoutNanos) + " s while " + turn.name + " waited for its turn");
                }
                frames.checkStall();
                changed.awaitNanos(POLL_NANOS);
            }
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MoverException(ErrorCode.CANCELLED, "interrupted while " + turn.name + " waited for the tar stream");
        }
        finally {
            lock.unlock();
        }
    }

    /** The turn holder writes its entry's header. */
    void putHeader(TarArchiveEntry header) {
        try {
            archive.putArchiveEntry(header);
        }
        catch (IOException | RuntimeException e) {
            throw fail("the header of " + header.getName() + " could not be written", e);
        }
    }

    /** The turn holder writes its entry's bytes at the position it waited for. */
    void write(String name, ByteBuffer source) {
        int length = source.remaining();
        try {
            if (source.hasArray()) {
                archive.write(source.array(), source.arrayOffset() + source.position(), length);
                source.position(source.limit());
            }
            while (source.hasRemaining()) {
                int n = Math.min(scratch.length, source.remaining());
                source.get(scratch, 0, n);
                archive.write(scratch, 0, n);
            }
        }
        catch (IOException | RuntimeException e) {
            throw fail(name + " could not be sent", e);
        }
        lock.lock();
        try {
            written += length;
            progressNanos = System.nanoTime();
            changed.signalAll();
        }
        finally {
            lock.unlock();
        }
    }

    /** The turn holder ends its entry (pads it to the record); returns where the stream is now. */
    long closeEntry(String name) {
        try {
            archive.closeArchiveEntry();
            return frames.position();
        }
        catch (IOException | RuntimeException e) {
            throw fail(name + " could not be completed", e);
        }
    }

    /** The turn's entry is written whole: the next ticket is served. */
    void finished(long ticket, Turn turn) {
        lock.lock();
        try {
            turn.done = true;
            release(ticket);
        }
        finally {
            lock.unlock();
        }
    }

    /**
     * The turn's writer was aborted. Before it started, its ticket is simply passed over; after, its entry
     * is incomplete and the stream breaks. Idempotent, from any thread (a blocked {@link #awaitTurn} wakes).
     */
    void abort(long ticket, Turn turn) {
        boolean breaks;
        lock.lock();
        try {
            turn.aborted = true;
            if (turn.done) {
                return;
            }
            turn.done = true;
            breaks = turn.started;
            if (!breaks) {
                release(ticket);
            }
        }
        finally {
            lock.unlock();
        }
        if (breaks) {
            fail(turn.name + " was aborted after its entry had started", null);
        }
    }

    /** Under the lock: the next ticket not given back early is served. */
    private void release(long ticket) {
        if (ticket != serving) {
            releasedEarly.add(ticket);
            changed.signalAll();
            return;
        }
        serving++;
        while (releasedEarly.remove(serving)) {
            serving++;
        }
        written = 0;
        progressNanos = System.nanoTime();
        changed.signalAll();
    }

    /** Waits until the connection took the stream up to {@code position} (a committed file's last byte). */
    void awaitSent(String name, long position) {
        try {
            frames.awaitSent(position, this::idle);
        }
        catch (IOException e) {
            throw fail(name + " was not sent whole", e);
        }
    }

    /** No entry is being written or waiting: nothing else will push buffered bytes out soon. */
    private boolean idle() {
        lock.lock();
        try {
            return serving > issued;
        }
        finally {
            lock.unlock();
        }
    }

    /**
     * Breaks the stream for good: resets the connection (the far side sees a truncated archive) and
     * returns the error every later call throws. The first reason is kept.
     */
    MoverException fail(String reason, Throwable cause) {
        String because = cause == null ? "" : ": " + (cause.getMessage() == null ? cause.toString() : cause.getMessage());
        MoverException error = new MoverException(ErrorCode.PLUGIN_FAILED, "the tar stream to " + where + " broke (" + reason + because
                + "); the receiver has an incomplete archive, and its tar reports it; run the copy again");
        if (broken.compareAndSet(null, error)) {
            frames.abort(reason);
            reset();
            lock.lock();
            try {
                changed.signalAll();
            }
            finally {
                lock.unlock();
            }
        }
        return broken.get();
    }

    boolean isBroken() {
        return broken.get() != null;
    }

    /** Writes tar's end-of-archive records, sends everything and half-closes the connection. */
    void finish() throws IOException {
        throwIfBroken();
        archive.finish();
        frames.close();
        socket.shutdownOutput();
    }

    FrameOutputStream frames() {
        return frames;
    }

    /** An abortive close (RST): the receiving side's nc and tar see an error, not a clean end of stream. */
    void reset() {
        TarInterop.resetQuietly(socket);
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

    /** One writer's claim on the stream; its flags change under the stream's lock. */
    static final class Turn {
        final String name;
        /** Its header may have been sent: aborting now breaks the stream. */
        boolean started;
        boolean aborted;
        /** Written whole or given up: nothing more happens to it. */
        boolean done;

        Turn(String name) {
            this.name = requireNonNull(name, "name is null");
        }
    }
}
