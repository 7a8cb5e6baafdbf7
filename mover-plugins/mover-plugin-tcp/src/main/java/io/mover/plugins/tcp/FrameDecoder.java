package io.mover.plugins.tcp;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.MaxMessagesRecvByteBufAllocator;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.util.concurrent.ScheduledFuture;

/**
 * Netty's length-field decoder (4-byte length, stripped; fail fast over {@link Wire#MAX_FRAME}) with two
 * additions for a server facing strangers: a lower limit until the handshake is done
 * ({@link #authenticated()}), and a deadline for each frame, so a peer that starts a frame and never
 * finishes it is closed instead of holding a connection and its buffer forever. One per connection.
 */
final class FrameDecoder extends LengthFieldBasedFrameDecoder {
    private final long frameTimeoutNanos;
    private final FrameCumulator cumulator;
    private int limit;
    private ScheduledFuture<?> deadline;
    private boolean failed;

    /** A sender's: replies are small but for KEPT, and its large-frame buffers are not kept for reuse. */
    FrameDecoder(int handshakeLimit, Duration frameTimeout) {
        this(handshakeLimit, frameTimeout, new BlockBuffers(0));
    }

    /** @param buffers where a large frame is gathered (the receiver's, shared by its connections) */
    FrameDecoder(int handshakeLimit, Duration frameTimeout, BlockBuffers buffers) {
        super(Wire.MAX_FRAME, 0, 4, 0, 4, true);
        this.limit = handshakeLimit;
        this.frameTimeoutNanos = frameTimeout.toNanos();
        this.cumulator = new FrameCumulator(() -> limit, buffers);
        setCumulator(cumulator);
    }

    /** Lets the socket's reads go straight into the large frame being gathered (not under TLS); see {@link FrameReads}. */
    MaxMessagesRecvByteBufAllocator readsInto(MaxMessagesRecvByteBufAllocator reads) {
        return new FrameReads(reads, cumulator);
    }

    /** After authentication, frames up to {@link Wire#MAX_FRAME}. Called on the event loop. */
    void authenticated() {
        limit = Wire.MAX_FRAME;
    }

    @Override
    protected long getUnadjustedFrameLength(ByteBuf buf, int offset, int length, java.nio.ByteOrder order) {
        long frameLength = super.getUnadjustedFrameLength(buf, offset, length, order);
        if (frameLength > limit || frameLength < 1) {
            throw new TooLongFrameException("a frame of " + frameLength + " bytes (the limit here is " + limit + ")");
        }
        return frameLength;
    }

    @Override
    protected Object decode(ChannelHandlerContext ctx, ByteBuf in) throws Exception {
        if (failed) {
            // the connection is being closed for a bad frame: nothing after it means anything
            in.skipBytes(in.readableBytes());
            return null;
        }
        Object frame;
        try {
            frame = super.decode(ctx, in);
        }
        catch (TooLongFrameException e) {
            failed = true;
            in.skipBytes(in.readableBytes());
            throw e;
        }
        if (frame != null) {
            cancelDeadline();
        }
        else if (in.isReadable() && deadline == null && frameTimeoutNanos > 0) {
            deadline = ctx.executor().schedule(() -> {
                ctx.fireExceptionCaught(new ProtocolException("a frame was not completed within " + Duration.ofNanos(frameTimeoutNanos).toMillis() + " ms"));
            }, frameTimeoutNanos, TimeUnit.NANOSECONDS);
        }
        return frame;
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) throws Exception {
        cancelDeadline();
        super.handlerRemoved0(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        cancelDeadline();
        super.channelInactive(ctx);
    }

    private void cancelDeadline() {
        if (deadline != null) {
            deadline.cancel(false);
            deadline = null;
        }
    }
}
