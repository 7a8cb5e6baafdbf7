package io.mover.plugins.tcp;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.CRC32C;

import io.mover.plugins.tcp.Message.Block;
import io.mover.plugins.tcp.Message.EntryReply;
import io.mover.plugins.tcp.Message.FileRequest;
import io.mover.spi.BlockHeader;
import io.mover.spi.EncodedBlockWriter;
import io.mover.spi.Entry;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.ResumableWriter;
import io.mover.spi.SinkWriter;
import io.mover.spi.ZeroBlocks;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import static java.util.Objects.requireNonNull;

/**
 * A file being written at the receiver. Blocks go out on whichever stream has room (up to the window
 * each), their acknowledgements (sent after the receiver's sink wrote them) are collected, and
 * {@link #commit()} sends COMMIT only once every block was acknowledged; COMMIT's reply comes after the
 * receiver's durable commit. Thread-safe as {@link SinkWriter} requires.
 */
final class PeerWriter implements SinkWriter, EncodedBlockWriter {
    private final PeerLink link;
    private final PeerSink sink;
    private final int file;
    private final Entry entry;
    private static final int MAX_SENDS = 4;

    private final Set<InFlight> pending = ConcurrentHashMap.newKeySet();
    private final AtomicReference<MoverException> failed = new AtomicReference<>();
    private volatile boolean aborted;
    private volatile boolean committed;
    /** Blocks the receiver's partial holds already (RESUME), by position. */
    private final java.util.NavigableMap<Long, ResumableWriter.Block> kept;
    /** Blocks of zeros not sent yet, to cross as fewer, longer blocks of zeros. */
    private final ZeroRuns zeroRuns = new ZeroRuns();
    private final java.util.Set<Long> resumedCounted = java.util.concurrent.ConcurrentHashMap.newKeySet();

    PeerWriter(PeerLink link, PeerSink sink, int file, Entry entry, List<ResumableWriter.Block> kept) {
        this.link = requireNonNull(link, "link is null");
        this.sink = requireNonNull(sink, "sink is null");
        this.file = file;
        this.entry = requireNonNull(entry, "entry is null");
        java.util.TreeMap<Long, ResumableWriter.Block> byPosition = new java.util.TreeMap<>();
        kept.forEach(block -> byPosition.put(block.position(), block));
        this.kept = java.util.Collections.unmodifiableNavigableMap(byPosition);
    }

    /** A plain write (not from the engine's encoder): sent as a raw block with its CRC32C. */
    @Override
    public void write(long position, ByteBuffer source) {
        CRC32C crc = new CRC32C();
        crc.update(source.duplicate());
        int length = source.remaining();
        writeEncoded(position, new BlockHeader(BlockHeader.RAW, length, length, (int) crc.getValue()), source);
    }

    /**
     * The receiver's partial has exactly these bytes (same place, length and CRC32C, RESUME's KEPT list):
     * the engine asks before it encodes, so a kept block is neither compressed nor sent again.
     */
    @Override
    public boolean holds(long position, int length, int crc32c) {
        Map.Entry<Long, ResumableWriter.Block> floor = kept.floorEntry(position);
        ResumableWriter.Block held = floor == null ? null : floor.getValue();
        if (held != null && (held.position() == position && held.length() == length && held.crc32c() == crc32c
                || heldZeros(held, position, length, crc32c))) {
            // a retried range asks again for the same block: still held, counted once
            if (resumedCounted.add(position)) {
                link.resumed(length);
            }
            return true;
        }
        return false;
    }

    /** A block of zeros inside a run of zeros the partial holds (sent as one block of zeros: {@link ZeroRuns}). */
    private static boolean heldZeros(ResumableWriter.Block held, long position, int length, int crc32c) {
        return position + length <= held.end() && crc32c == ZeroBlocks.crc32c(length) && held.crc32c() == ZeroBlocks.crc32c(held.length());
    }

    @Override
    public void writeEncoded(long position, BlockHeader header, ByteBuffer payload) {
        if (aborted) {
            throw new MoverException(ErrorCode.CANCELLED, "the write of " + entry.path() + " was aborted");
        }
        MoverException error = failed.get();
        if (error != null) {
            throw error;
        }
        if (holds(position, header.rawLength(), header.crc32c())) {
            return; // a caller that did not ask first: the block is still not sent again
        }
        if (header.codecId() == BlockHeader.ZEROS) {
            zeroRuns.add(position, header.rawLength()).forEach(this::sendZeros);
            return;
        }
        zeroRuns.endingAt(position).ifPresent(this::sendZeros);
        ByteBuf copy = payload.hasRemaining() ? sink.buffers().allocate(payload.remaining()) : Unpooled.EMPTY_BUFFER;
        copy.writeBytes(payload);
        start(new InFlight(position, header, copy));
    }

    /** A run of blocks of zeros as one block of zeros: its header alone, no buffer to take and give back. */
    private void sendZeros(ZeroRuns.Run run) {
        start(new InFlight(run.position(), new BlockHeader(BlockHeader.ZEROS, run.length(), 0, ZeroBlocks.crc32c(run.length())),
                Unpooled.EMPTY_BUFFER));
    }

    private void start(InFlight block) {
        pending.add(block);
        try {
            send(block);
        }
        catch (RuntimeException e) {
            block.settle(e);
            throw e;
        }
    }

    /**
     * Sends {@code block} (a retained duplicate of its bytes: this writer keeps its own reference until the
     * block is settled). A block lost with its connection is sent again on another, up to
     * {@value #MAX_SENDS} times in all: the receiver acknowledges only what its sink wrote, so the blocks
     * without an acknowledgement are exactly the ones to send again, and the file goes on where it was.
     */
    private void send(InFlight block) {
        block.sends++;
        link.send(id -> new Block(id, file, block.position, block.header, block.bytes.retainedDuplicate()), () -> aborted)
                .whenComplete((reply, error) -> {
                    if (error == null) {
                        block.settle(null);
                    }
                    else if (retryable(error) && block.sends < MAX_SENDS && !aborted) {
                        // not on the event loop that reported the loss: sending may wait for a connection or a window slot
                        Thread.ofVirtual().name("mover-resend").start(() -> {
                            try {
                                send(block);
                            }
                            catch (RuntimeException e) {
                                block.settle(e);
                            }
                        });
                    }
                    else {
                        block.settle(error);
                    }
                });
    }

    private static boolean retryable(Throwable error) {
        return error instanceof MoverException mover && (mover.code() == ErrorCode.CONNECTION_LOST || mover.code() == ErrorCode.TIMEOUT);
    }

    /** For tests: returns once every block written so far was sent and acknowledged. */
    void awaitBlocksForTests() {
        zeroRuns.drain().forEach(this::sendZeros);
        awaitBlocks();
    }

    /** Waits until every block sent was acknowledged or failed for good; bounded by the link's timeout per round. */
    private void awaitBlocks() {
        long deadline = System.nanoTime() + link.timeout().toNanos() * MAX_SENDS;
        for (InFlight block : List.copyOf(pending)) {
            long left = deadline - System.nanoTime();
            try {
                block.settled.get(Math.max(1, left), TimeUnit.NANOSECONDS);
            }
            catch (ExecutionException e) {
                // recorded in failed
            }
            catch (TimeoutException e) {
                throw new MoverException(ErrorCode.TIMEOUT, "the receiver did not acknowledge every block of " + entry.path() + " in time");
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new MoverException(ErrorCode.CANCELLED, "interrupted");
            }
        }
        MoverException error = failed.get();
        if (error != null) {
            throw error;
        }
    }

    /** A block between its first send and its acknowledgement (or its final failure). */
    private final class InFlight {
        final long position;
        final BlockHeader header;
        final ByteBuf bytes;
        final CompletableFuture<Void> settled = new CompletableFuture<>();
        volatile int sends;

        InFlight(long position, BlockHeader header, ByteBuf bytes) {
            this.position = position;
            this.header = header;
            this.bytes = bytes;
        }

        synchronized void settle(Throwable error) {
            if (!settled.isDone()) {
                pending.remove(this);
                int sent = bytes.readableBytes(); // read before the release hands the buffer back to the pool
                bytes.release();
                if (error == null) {
                    link.acknowledged(sent + BlockHeader.LENGTH, header.rawLength());
                    settled.complete(null);
                    return;
                }
                MoverException cause = error instanceof MoverException mover ? mover
                        : new MoverException(ErrorCode.CONNECTION_LOST, String.valueOf(error.getMessage()));
                failed.compareAndSet(null, cause);
                settled.completeExceptionally(cause);
            }
        }
    }

    @Override
    public Entry commit() {
        if (aborted) {
            throw new IllegalStateException("the write of " + entry.path() + " was aborted");
        }
        if (committed) {
            throw new IllegalStateException(entry.path() + " is already committed");
        }
        zeroRuns.drain().forEach(this::sendZeros);
        awaitBlocks();
        List<Message> reply = link.call(id -> new FileRequest(id, Wire.COMMIT, file));
        if (reply.getLast() instanceof EntryReply(int id, java.util.Optional<Entry> visible) && visible.isPresent()) {
            committed = true;
            return sink.relative(visible.get());
        }
        throw new MoverException(ErrorCode.INTERNAL, "the receiver answered a commit of " + entry.path() + " without the committed entry");
    }

    @Override
    public void abort() {
        if (aborted || committed) {
            return;
        }
        aborted = true;
        try {
            // best effort: if the link is gone, the receiver aborts the session's files after its grace period
            PeerLink.await(link.send(id -> new FileRequest(id, Wire.ABORT, file), () -> false), java.time.Duration.ofSeconds(5));
        }
        catch (MoverException e) {
            // the receiver cleans up by itself; nothing more to do here
        }
    }

}
