package io.mover.plugins.tcp;

import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.zip.CRC32C;

import io.mover.plugins.tcp.Message.Block;
import io.mover.plugins.tcp.Message.EntryReply;
import io.mover.plugins.tcp.Message.FileRequest;
import io.mover.spi.BlockHeader;
import io.mover.spi.EncodedBlockWriter;
import io.mover.spi.Entry;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.SinkWriter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;

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
    private final Queue<CompletableFuture<List<Message>>> unacknowledged = new ConcurrentLinkedQueue<>();
    private volatile boolean aborted;
    private volatile boolean committed;

    PeerWriter(PeerLink link, PeerSink sink, int file, Entry entry) {
        this.link = requireNonNull(link, "link is null");
        this.sink = requireNonNull(sink, "sink is null");
        this.file = file;
        this.entry = requireNonNull(entry, "entry is null");
    }

    /** A plain write (not from the engine's encoder): sent as a raw block with its CRC32C. */
    @Override
    public void write(long position, ByteBuffer source) {
        CRC32C crc = new CRC32C();
        crc.update(source.duplicate());
        int length = source.remaining();
        writeEncoded(position, new BlockHeader(BlockHeader.RAW, length, length, (int) crc.getValue()), source);
    }

    @Override
    public void writeEncoded(long position, BlockHeader header, ByteBuffer payload) {
        if (aborted) {
            throw new MoverException(ErrorCode.CANCELLED, "the write of " + entry.path() + " was aborted");
        }
        throwFirstFailure(false);
        ByteBuffer bytes = payload.duplicate();
        payload.position(payload.limit());
        unacknowledged.add(link.send(id -> {
            // copied now, once the stream has room: the caller's buffer is still ours until this method returns
            ByteBuf copy = PooledByteBufAllocator.DEFAULT.directBuffer(bytes.remaining());
            copy.writeBytes(bytes);
            return new Block(id, file, position, header, copy);
        }, () -> aborted));
    }

    /** Fails with the first failed acknowledgement; with {@code wait}, waits for all of them first. */
    private void throwFirstFailure(boolean wait) {
        for (Iterator<CompletableFuture<List<Message>>> it = unacknowledged.iterator(); it.hasNext(); ) {
            CompletableFuture<List<Message>> ack = it.next();
            if (wait || ack.isDone()) {
                PeerLink.await(ack, link.timeout());
                it.remove();
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
        throwFirstFailure(true);
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
        unacknowledged.forEach(ack -> ack.cancel(false));
        unacknowledged.clear();
    }

}
