package io.mover.plugins.tcp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.MaxMessagesRecvByteBufAllocator;

import static java.util.Objects.requireNonNull;

/**
 * The channel's read buffers, except while a large frame is being gathered: then the socket reads into the frame's own
 * buffer ({@link FrameCumulator#readTarget()}), and the copy of every BLOCK's bytes out of a read buffer is gone. Sizing
 * and the reads per event are the wrapped allocator's. For a connection without TLS only: under TLS the socket's bytes
 * are encrypted records, not the frame. Handles are used on the channel's event loop, like the cumulator. NIO channels
 * only, as the peer uses: epoll's would need Netty's extended handle.
 */
final class FrameReads implements MaxMessagesRecvByteBufAllocator {
    private final MaxMessagesRecvByteBufAllocator reads;
    private final FrameCumulator cumulator;

    /** A max-messages allocator, as the channel's configuration expects of any (it reads and sets the reads per event). */
    FrameReads(MaxMessagesRecvByteBufAllocator reads, FrameCumulator cumulator) {
        this.reads = requireNonNull(reads, "reads is null");
        this.cumulator = requireNonNull(cumulator, "cumulator is null");
    }

    @Override
    @SuppressWarnings("deprecation") // Netty's own channels still take a plain Handle
    public Handle newHandle() {
        return new DelegatingHandle(reads.newHandle()) {
            @Override
            public ByteBuf allocate(ByteBufAllocator alloc) {
                ByteBuf target = cumulator.readTarget();
                return target != null ? target : super.allocate(alloc);
            }
        };
    }

    @Override
    public int maxMessagesPerRead() {
        return reads.maxMessagesPerRead();
    }

    @Override
    public MaxMessagesRecvByteBufAllocator maxMessagesPerRead(int maxMessagesPerRead) {
        reads.maxMessagesPerRead(maxMessagesPerRead);
        return this;
    }
}
