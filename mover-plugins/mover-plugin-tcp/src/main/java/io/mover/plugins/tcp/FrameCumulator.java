package io.mover.plugins.tcp;

import java.util.function.IntSupplier;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.ByteToMessageDecoder.Cumulator;

import static java.util.Objects.requireNonNull;

/**
 * Gathers a large frame (a BLOCK of up to 32 MiB) in one buffer of the frame's size ({@link BlockBuffers}), taken when its
 * length field arrives, so each byte is copied once from the socket's read buffer. Netty's merging cumulator grows
 * the cumulation by reallocating it as reads arrive: with the channel's adaptive allocator a 1 MiB frame took two
 * to four fresh unpooled direct buffers (zeroed by the JDK, page-faulted in, copied into), a fifth of the
 * receiver's CPU in a profile of 1 GiB without a codec (docs/benchmarks.md, the TCP peer). Small frames, and a
 * length over the limit (which the frame decoder refuses from the length field alone), go to Netty's merging
 * cumulator unchanged, so a frame refused before authentication is never gathered. One per connection, used on
 * its event loop, like any cumulator.
 */
final class FrameCumulator implements Cumulator {
    /** Frames from this size on are gathered in a buffer of their own: below it, one read usually holds the frame. */
    static final int LARGE_FRAME = 64 << 10;
    /**
     * Room after the frame for the next frame's first bytes, which arrive in the same read: without it, the read
     * that completes a frame would not fit, and the whole frame would be copied into a larger buffer.
     */
    static final int SLACK = 64 << 10;

    private final IntSupplier limit;
    private final BlockBuffers buffers;
    /** The buffer a large frame is being gathered in (the decoder's cumulation while the frame is incomplete); null before one. */
    private ByteBuf gathering;
    /** The last {@link #readTarget()} handed to the socket's read; only compared by identity. */
    private ByteBuf readSlice;

    /** @param limit the largest frame the decoder accepts now (lower until the handshake is done) */
    FrameCumulator(IntSupplier limit, BlockBuffers buffers) {
        this.limit = requireNonNull(limit, "limit is null");
        this.buffers = requireNonNull(buffers, "buffers is null");
    }

    /**
     * Where the socket's next read may go, so its bytes land in the frame's buffer without the copy out of a read buffer
     * (6 % of a receiver's CPU per GiB of raw blocks, docs/benchmarks.md): a slice of the free space after the bytes a
     * large, incomplete frame has so far, no longer than the rest of that frame; null when no such frame is being
     * gathered, or when a frame sliced from its buffer is still held (as {@link #cumulate} writes in place only then).
     * The slice comes back through {@link #cumulate} as the read's buffer. Only for reads straight from the socket:
     * under TLS the socket's bytes are not the frame's.
     */
    ByteBuf readTarget() {
        ByteBuf target = gathering;
        if (target == null || target.refCnt() != 1 || target.readableBytes() < Integer.BYTES) {
            return null;
        }
        long missing = Integer.BYTES + target.getUnsignedInt(target.readerIndex()) - target.readableBytes();
        int length = (int) Math.min(missing, target.writableBytes());
        if (length <= 0) {
            return null;
        }
        readSlice = target.retainedSlice(target.writerIndex(), length).clear();
        return readSlice;
    }

    @Override
    public ByteBuf cumulate(ByteBufAllocator alloc, ByteBuf cumulation, ByteBuf in) {
        if (in == readSlice && cumulation == gathering) {
            // the socket read into the frame's buffer itself: the bytes are in place
            readSlice = null;
            int read = in.readableBytes();
            in.release();
            return cumulation.writerIndex(cumulation.writerIndex() + read);
        }
        long frame = frameBytes(cumulation, in);
        boolean whole = !cumulation.isReadable() && in.readableBytes() >= frame;
        if (cumulation == in || whole || frame < LARGE_FRAME || frame > limit.getAsInt() + (long) Integer.BYTES) {
            return ByteToMessageDecoder.MERGE_CUMULATOR.cumulate(alloc, cumulation, in);
        }
        try {
            ByteBuf target = cumulation;
            // written in place only while no frame sliced from it is still held (a BLOCK's payload is a slice)
            if (target.refCnt() != 1 || target.isReadOnly() || target.writableBytes() < in.readableBytes()) {
                int needed = cumulation.readableBytes() + in.readableBytes();
                target = buffers.allocate((int) Math.max(needed, frame + SLACK));
                target.writeBytes(cumulation);
                cumulation.release();
            }
            target.writeBytes(in);
            gathering = target;
            return target;
        }
        finally {
            in.release();
        }
    }

    /** The length of the frame the gathered bytes begin with, its length field included; -1 while unknown. */
    private static long frameBytes(ByteBuf cumulation, ByteBuf in) {
        if (cumulation.readableBytes() >= Integer.BYTES) {
            return Integer.BYTES + cumulation.getUnsignedInt(cumulation.readerIndex());
        }
        if (!cumulation.isReadable() && in.readableBytes() >= Integer.BYTES) {
            return Integer.BYTES + in.getUnsignedInt(in.readerIndex());
        }
        return -1;
    }
}
