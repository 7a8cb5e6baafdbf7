package io.mover.plugins.tcp.tar;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;

import static java.util.Objects.requireNonNull;

/**
 * Between the engine's writers and the pump of a {@link TarStream}: the entries in the order their
 * writers were created, each with the blocks handed over and not yet written, in a bounded buffer. A tar
 * stream is a sequence (a header, its bytes, the next entry), while the engine writes many files at once
 * and a large file in ranges on several threads; so writers only hand copies over, and wait only while
 * the buffer is full (the compressors or the connection set the pace). The block the pump needs next is
 * always taken, so the pump never waits for room it holds itself.
 *
 * <p>An entry whose header has not gone out can be dropped (its writer aborted); after that, aborting it,
 * or writing bytes already written, breaks the stream for good: every later call fails with
 * {@link ErrorCode#PLUGIN_FAILED}, which stops the job. So does a head entry that gets no byte for the
 * timeout. Thread-safe.
 */
final class TarEntries {
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    private final String where;
    private final long timeoutNanos;
    private final Consumer<String> onBreak;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    /** Entries not yet written whole, in the order of their writers' creation. */
    private final ArrayDeque<Pending> order = new ArrayDeque<>();
    private final AtomicReference<MoverException> broken = new AtomicReference<>();
    private long bufferLeft;
    private boolean finishing;
    /** When the pump last moved a byte, for the no-progress timeout. */
    private long progressNanos = System.nanoTime();
    /** Time writers waited for room in the buffer. */
    final LongAdder waitNanos = new LongAdder();

    /** {@code onBreak} gets the reason once, when the stream breaks (it resets the connection). */
    TarEntries(String where, long bufferBytes, long timeoutNanos, Consumer<String> onBreak) {
        this.where = requireNonNull(where, "where is null");
        this.bufferLeft = bufferBytes;
        this.timeoutNanos = timeoutNanos;
        this.onBreak = requireNonNull(onBreak, "onBreak is null");
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

    /**
     * For the pump: the next thing to write, in order (the head entry's next block, or its end once it is
     * committed whole), taken under the lock; null once finished or broken. A taken block counts as written:
     * it is on its way, and nothing can put it back.
     */
    Take take() {
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
                        head.written += block == null ? 0 : block.length;
                        boolean header = !head.started;
                        head.started = true;
                        return new Take(head, block, header);
                    }
                }
                if (head != null && System.nanoTime() - progressNanos > timeoutNanos) {
                    failLocked("nothing of " + head.name + " arrived for " + TimeUnit.NANOSECONDS.toSeconds(timeoutNanos)
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

    /** The pump wrote a taken block: its room is free again. */
    void moved(int length) {
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

    /** The pump ended the head entry. */
    void finished(Pending head) {
        lock.lock();
        try {
            head.done = true;
            order.remove(head);
            progressNanos = System.nanoTime();
            changed.signalAll();
        }
        finally {
            lock.unlock();
        }
    }

    /** No more entries will come: the pump stops once the last one is written. */
    void finishing() {
        lock.lock();
        try {
            finishing = true;
            changed.signalAll();
        }
        finally {
            lock.unlock();
        }
    }

    /**
     * Breaks the stream for good (the stream resets its connection: the far side sees a truncated archive)
     * and returns the error every later call throws. The first reason is kept.
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
            onBreak.accept(reason);
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

    void throwIfBroken() {
        MoverException error = broken.get();
        if (error != null) {
            throw error;
        }
    }

    /** What the pump writes next: the entry's header first when {@code header}, then the block, or the entry's end when null. */
    record Take(Pending entry, byte[] block, boolean header) {}

    /** One entry on its way; every field but the header changes under the lock of its {@link TarEntries}. */
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

        Pending(TarArchiveEntry header) {
            this.header = header;
            this.name = header.getName();
            this.size = header.getSize();
        }
    }
}
