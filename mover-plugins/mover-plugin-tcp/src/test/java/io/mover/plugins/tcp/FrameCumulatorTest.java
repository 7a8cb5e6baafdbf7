package io.mover.plugins.tcp;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.TooLongFrameException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Large frames gathered once each in a reused buffer ({@link FrameCumulator}, {@link BlockBuffers}), on an EmbeddedChannel. */
@ExtendWith(LeakWatch.class)
class FrameCumulatorTest {
    private static final long MARK = 0x6d6f766572L;

    /** Three large frames and a small one, as one byte stream cut into reads that straddle the frames' ends. */
    @Test
    void largeFramesArriveWholeEachInOneBufferFromReadsThatStraddleThem() {
        BlockBuffers buffers = new BlockBuffers(BlockBuffers.DEFAULT_MAX_IDLE);
        EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(Wire.MAX_FRAME, Duration.ofSeconds(5), buffers));
        Random random = new Random(5);
        List<byte[]> frames = List.of(bytes(random, 300_000), bytes(random, 1 << 20), bytes(random, 100), bytes(random, 200_000));
        ByteBuf stream = Unpooled.buffer();
        for (byte[] frame : frames) {
            stream.writeInt(frame.length).writeBytes(frame);
        }
        List<ByteBuf> received = new ArrayList<>();
        try {
            for (int read = 0; stream.isReadable(); read++) {
                // reads of 1 byte to 63 KiB, as a socket gives them
                channel.writeInbound(stream.readRetainedSlice(Math.min(stream.readableBytes(), 1 + random.nextInt(63 << 10))));
                for (ByteBuf frame = channel.readInbound(); frame != null; frame = channel.readInbound()) {
                    received.add(frame);
                }
            }
            assertThat(received).hasSize(frames.size());
            for (int i = 0; i < frames.size(); i++) {
                assertThat(ByteBufUtil.getBytes(received.get(i))).as("frame " + i).isEqualTo(frames.get(i));
            }
            // one buffer per large frame: the cumulation was never grown by copying
            assertThat(buffers.handedOut()).isEqualTo(3);
        }
        finally {
            stream.release();
            received.forEach(ByteBuf::release);
            channel.finishAndReleaseAll();
        }
        assertThat(buffers.outstanding()).isZero();
        assertThat(buffers.idleBytes()).isPositive();
    }

    @Test
    void aReleasedBufferIsReusedAndIdleMemoryIsBounded() {
        BlockBuffers buffers = new BlockBuffers(BlockBuffers.GRAIN * 4L);
        ByteBuf first = buffers.allocate(BlockBuffers.GRAIN * 3 + 1);
        assertThat(first.capacity()).isEqualTo(BlockBuffers.GRAIN * 4);
        assertThat(first.readableBytes()).isZero();
        // reused memory is not zeroed again: the mark shows that the same memory came back
        first.writeLong(MARK).release();
        ByteBuf again = buffers.allocate(BlockBuffers.GRAIN * 4);
        assertThat(again.getLong(0)).isEqualTo(MARK);
        assertThat(again.readableBytes()).isZero();
        ByteBuf other = buffers.allocate(BlockBuffers.GRAIN);
        again.release();
        other.release();
        // the second one would exceed the bound: dropped, left to the garbage collector
        assertThat(buffers.idleBytes()).isEqualTo(BlockBuffers.GRAIN * 4L);
        assertThat(buffers.outstanding()).isZero();
        // a smaller size takes the larger idle buffer rather than a new one
        ByteBuf smaller = buffers.allocate(BlockBuffers.GRAIN * 2);
        assertThat(smaller.getLong(0)).isEqualTo(MARK);
        assertThat(buffers.idleBytes()).isZero();
        smaller.release();
    }

    /** Before authentication a large length is refused from the field alone: nothing is reserved for it. */
    @Test
    void aLargeFrameBeforeAuthenticationTakesNoBuffer() {
        BlockBuffers buffers = new BlockBuffers(BlockBuffers.DEFAULT_MAX_IDLE);
        EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(Wire.MAX_HANDSHAKE_FRAME, Duration.ofSeconds(5), buffers));
        assertThatThrownBy(() -> channel.writeInbound(Unpooled.buffer().writeInt(1 << 20).writeZero(1000))).isInstanceOf(TooLongFrameException.class);
        assertThat(buffers.handedOut()).isZero();
        channel.finishAndReleaseAll();
    }

    /**
     * Reads as a socket channel makes them with {@link FrameReads}: once a large frame's length is in, each read goes into
     * that frame's buffer, never past the frame's end, and the frame comes out whole from that one buffer; the next
     * frame's first read is an ordinary read buffer again.
     */
    @Test
    void readsGoStraightIntoTheFrameBeingGathered() {
        BlockBuffers buffers = new BlockBuffers(BlockBuffers.DEFAULT_MAX_IDLE);
        FrameDecoder frames = new FrameDecoder(Wire.MAX_FRAME, Duration.ofSeconds(5), buffers);
        EmbeddedChannel channel = new EmbeddedChannel(frames);
        RecvByteBufAllocator.Handle reads = frames.readsInto(new AdaptiveRecvByteBufAllocator()).newHandle();
        Random random = new Random(7);
        byte[] frame = bytes(random, 1 << 20);
        ByteBuf stream = Unpooled.buffer().writeInt(frame.length).writeBytes(frame).writeInt(3).writeBytes(new byte[] {1, 2, 3});
        List<ByteBuf> received = new ArrayList<>();
        int intoTheFrame = 0;
        try {
            while (stream.isReadable()) {
                ByteBuf read = reads.allocate(channel.alloc());
                // a slice of the frame's buffer: exactly the frame's missing bytes, so a read never runs past its end
                boolean direct = read.capacity() == Integer.BYTES + frame.length - stream.readerIndex();
                // the socket fills what it is given, up to 64 KiB here
                read.writeBytes(stream, Math.min(Math.min(read.writableBytes(), 64 << 10), stream.readableBytes()));
                intoTheFrame += direct ? 1 : 0;
                channel.writeInbound(read);
                for (ByteBuf out = channel.readInbound(); out != null; out = channel.readInbound()) {
                    received.add(out);
                }
            }
            assertThat(received).hasSize(2);
            assertThat(ByteBufUtil.getBytes(received.get(0))).isEqualTo(frame);
            assertThat(ByteBufUtil.getBytes(received.get(1))).isEqualTo(new byte[] {1, 2, 3});
            assertThat(intoTheFrame).as("reads that went into the frame's buffer").isGreaterThanOrEqualTo((1 << 20) / (64 << 10));
            assertThat(buffers.handedOut()).isEqualTo(1);
            assertThat(frames.readsInto(new AdaptiveRecvByteBufAllocator()).maxMessagesPerRead()).isEqualTo(new AdaptiveRecvByteBufAllocator().maxMessagesPerRead());
        }
        finally {
            stream.release();
            received.forEach(ByteBuf::release);
            channel.finishAndReleaseAll();
        }
        assertThat(buffers.outstanding()).isZero();
    }

    private static byte[] bytes(Random random, int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }
}
