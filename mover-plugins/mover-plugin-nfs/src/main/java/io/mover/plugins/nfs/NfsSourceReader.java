package io.mover.plugins.nfs;

import io.mover.plugins.nfs.client.FileHandle;
import io.mover.plugins.nfs.client.NfsCalls;
import io.mover.plugins.nfs.client.NfsClient;
import io.mover.spi.SourceReader;
import io.netty.buffer.ByteBuf;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Positional reads of one NFS file in chunks of the READ size. Each read asks for the chunks it covers and
 * for {@code readAhead} chunks after them, all pipelined: a sequential reader finds its next chunks already
 * arrived. A chunk is released once every byte of it was copied out, or at {@link #close()}.
 *
 * <p>Thread-safe: ranges of one file are read in parallel through one reader.
 */
final class NfsSourceReader implements SourceReader {
    private final NfsTree tree;
    private final FileHandle handle;
    private final long size;
    private final int chunkSize;
    private final int readAhead;
    private final String what;
    private final Map<Long, Chunk> chunks = new ConcurrentHashMap<>();
    /** Chunks already copied out: read-ahead must not fetch them again (parallel ranges read ahead into each other). */
    private final java.util.BitSet consumed = new java.util.BitSet();
    private volatile boolean closed;

    private record Chunk(CompletableFuture<NfsClient.ReadResult> result, AtomicInteger copied) {
    }

    NfsSourceReader(NfsTree tree, FileHandle handle, long size, int chunkSize, int readAhead, String what) {
        this.tree = tree;
        this.handle = handle;
        this.size = size;
        this.chunkSize = chunkSize;
        this.readAhead = readAhead;
        this.what = "read " + what;
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public int read(long position, ByteBuffer destination) {
        int total = 0;
        long at = position;
        while (destination.hasRemaining() && at < size) {
            long index = at / chunkSize;
            // the chunk wanted now goes out before the read-ahead: with every permit taken by other ranges' read-ahead,
            // it would otherwise queue behind chunks nobody waits for yet
            Chunk chunk = chunk(index);
            long last = Math.min((at + destination.remaining() - 1) / chunkSize + readAhead, (size - 1) / chunkSize);
            for (long ahead = index + 1; ahead <= last; ahead++) {
                if (!isConsumed(ahead)) {
                    chunk(ahead);
                }
            }
            ByteBuf data;
            try {
                data = NfsCalls.await(chunk.result()).data();
            }
            catch (RuntimeException e) {
                chunks.remove(index, chunk); // a retry asks the server again
                throw e;
            }
            int offset = (int) (at - index * chunkSize);
            int length = Math.min(destination.remaining(), data.readableBytes() - offset);
            if (length <= 0) {
                // the server returned less than a chunk: read the rest directly (rare; a file that shrank ends here)
                int direct = readDirect(at, destination);
                if (direct == 0) {
                    break;
                }
                total += direct;
                at += direct;
                continue;
            }
            ByteBuffer target = destination.slice(destination.position(), length);
            data.getBytes(data.readerIndex() + offset, target);
            destination.position(destination.position() + length);
            total += length;
            at += length;
            if (chunk.copied().addAndGet(length) >= data.readableBytes() && chunks.remove(index, chunk)) {
                markConsumed(index);
                data.release();
            }
        }
        return total;
    }

    private boolean isConsumed(long index) {
        synchronized (consumed) {
            return index < Integer.MAX_VALUE && consumed.get((int) index);
        }
    }

    private void markConsumed(long index) {
        if (index < Integer.MAX_VALUE) {
            synchronized (consumed) {
                consumed.set((int) index);
            }
        }
    }

    /**
     * The chunk at {@code index}, its READ sent by whichever thread asks first. The call is made outside the map's
     * lock: it may wait for a free slot on the connections, and other threads must meanwhile find their chunks.
     */
    private Chunk chunk(long index) {
        Chunk known = chunks.get(index);
        if (known != null) {
            return known;
        }
        Chunk fresh = new Chunk(new CompletableFuture<>(), new AtomicInteger());
        known = chunks.putIfAbsent(index, fresh);
        if (known != null) {
            return known;
        }
        long offset = index * chunkSize;
        int count = (int) Math.min(chunkSize, size - offset);
        CompletableFuture<NfsClient.ReadResult> call;
        try {
            call = tree.client().read(handle, offset, count, what);
        }
        catch (RuntimeException e) {
            fresh.result().completeExceptionally(e);
            return fresh;
        }
        call.whenComplete((result, error) -> {
            if (error != null) {
                fresh.result().completeExceptionally(error);
            }
            else if (!fresh.result().complete(result)) {
                result.data().release();
            }
        });
        return fresh;
    }

    private int readDirect(long position, ByteBuffer destination) {
        int count = (int) Math.min(destination.remaining(), Math.min(chunkSize, size - position));
        NfsClient.ReadResult result = NfsCalls.await(tree.client().read(handle, position, count, what));
        try {
            int length = Math.min(count, result.data().readableBytes());
            result.data().getBytes(result.data().readerIndex(), destination.slice(destination.position(), length));
            destination.position(destination.position() + length);
            return length;
        }
        finally {
            result.data().release();
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (Chunk chunk : chunks.values()) {
            chunk.result().whenComplete((result, error) -> {
                if (result != null) {
                    result.data().release();
                }
            });
        }
        chunks.clear();
    }
}
