package io.mover.plugins.tcp;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import io.mover.plugins.tcp.Message.Block;
import io.mover.plugins.tcp.Message.EntryRequest;
import io.mover.plugins.tcp.Message.Listing;
import io.mover.plugins.tcp.Message.PathRequest;
import io.mover.spi.Attributes;
import io.mover.spi.BlockHeader;
import io.mover.spi.Entry;
import io.mover.spi.EntryType;
import io.mover.spi.RelativePath;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.TooLongFrameException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The frame and message codecs on Netty's EmbeddedChannel: round trips, and what they refuse. */
@ExtendWith(LeakWatch.class)
class MessageCodecTest {
    private static final Entry ENTRY = new Entry(RelativePath.of("dir/ünï file"), EntryType.FILE, 1234, Instant.ofEpochSecond(1_700_000_000L, 123_456_789),
            Attributes.ofMode(0640));

    private static EmbeddedChannel channel(int limit) {
        return new EmbeddedChannel(new FrameDecoder(limit, Duration.ofSeconds(1)), MessageDecoder.INSTANCE, MessageEncoder.INSTANCE);
    }

    /** Encodes on one channel, feeds the bytes to another, returns what it decoded. */
    private static Object roundTrip(Message message) {
        EmbeddedChannel sender = channel(Wire.MAX_FRAME);
        EmbeddedChannel receiver = channel(Wire.MAX_FRAME);
        assertThat(sender.writeOutbound(message)).isTrue();
        for (Object out = sender.readOutbound(); out != null; out = sender.readOutbound()) {
            receiver.writeInbound(out);
        }
        Object decoded = receiver.readInbound();
        assertThat((Object) receiver.readInbound()).isNull();
        sender.finishAndReleaseAll();
        receiver.finishAndReleaseAll();
        return decoded;
    }

    @Test
    void requestsAndRepliesRoundTrip() {
        assertThat(roundTrip(new PathRequest(7, Wire.DELETE, "a/b", true))).isEqualTo(new PathRequest(7, Wire.DELETE, "a/b", true));
        assertThat(roundTrip(new EntryRequest(8, Wire.OPEN, 3, ENTRY))).isEqualTo(new EntryRequest(8, Wire.OPEN, 3, ENTRY));
        assertThat(roundTrip(new Message.Done(9, 42))).isEqualTo(new Message.Done(9, 42));
        assertThat(roundTrip(new Message.EntryReply(10, Optional.of(ENTRY)))).isEqualTo(new Message.EntryReply(10, Optional.of(ENTRY)));
        assertThat(roundTrip(new Listing(11, List.of(ENTRY, ENTRY), true))).isEqualTo(new Listing(11, List.of(ENTRY, ENTRY), true));
        assertThat(roundTrip(new Message.Failure(12, "NOT_FOUND", "gone"))).isEqualTo(new Message.Failure(12, "NOT_FOUND", "gone"));
        assertThat(roundTrip(new Message.StartTls(Wire.VERSION))).isEqualTo(new Message.StartTls(Wire.VERSION));
        assertThat(roundTrip(new Message.Resume(13, 4, ENTRY, "k3y_-"))).isEqualTo(new Message.Resume(13, 4, ENTRY, "k3y_-"));
        assertThat(roundTrip(new Message.Kept(14, List.of(new io.mover.spi.ResumableWriter.Block(1L << 33, 1 << 20, -7)))))
                .isEqualTo(new Message.Kept(14, List.of(new io.mover.spi.ResumableWriter.Block(1L << 33, 1 << 20, -7))));
    }

    @Test
    void aBlockRoundTripsWithItsPayloadAndIsReleased() {
        byte[] bytes = "some block bytes".getBytes(StandardCharsets.UTF_8);
        BlockHeader header = new BlockHeader(BlockHeader.RAW, bytes.length, bytes.length, 99);
        Object decoded = roundTrip(new Block(5, 2, 4096, header, Unpooled.wrappedBuffer(bytes)));

        Block block = (Block) decoded;
        try {
            assertThat(block.header()).isEqualTo(header);
            assertThat(block.position()).isEqualTo(4096);
            byte[] payload = new byte[block.payload().readableBytes()];
            block.payload().getBytes(block.payload().readerIndex(), payload);
            assertThat(payload).isEqualTo(bytes);
        }
        finally {
            block.release();
        }
    }

    @Test
    void aFrameOverTheHandshakeLimitIsRefusedBeforeItsBytesArrive() {
        EmbeddedChannel channel = channel(Wire.MAX_HANDSHAKE_FRAME);
        ByteBuf frame = Unpooled.buffer().writeInt(Wire.MAX_HANDSHAKE_FRAME + 1).writeByte(Wire.AUTH);

        assertThatThrownBy(() -> channel.writeInbound(frame)).isInstanceOf(TooLongFrameException.class);
        channel.finishAndReleaseAll();
    }

    @Test
    void anOversizeLengthIsRefusedAfterAuthenticationToo() {
        EmbeddedChannel channel = channel(Wire.MAX_HANDSHAKE_FRAME);
        ((FrameDecoder) channel.pipeline().first()).authenticated();

        assertThatThrownBy(() -> channel.writeInbound(Unpooled.buffer().writeInt(Integer.MAX_VALUE))).isInstanceOf(TooLongFrameException.class);
        channel.finishAndReleaseAll();
    }

    @Test
    void aFrameThatNeverCompletesMissesItsDeadline() {
        EmbeddedChannel channel = channel(Wire.MAX_FRAME);
        channel.writeInbound(Unpooled.buffer().writeInt(100).writeBytes(new byte[10]));
        channel.advanceTimeBy(2, TimeUnit.SECONDS);
        channel.runScheduledPendingTasks();

        assertThatThrownBy(channel::checkException).isInstanceOf(ProtocolException.class).hasMessageContaining("not completed within 1000 ms");
        channel.finishAndReleaseAll();
    }

    @Test
    void aResumeKeyThatIsNotAPlainNameAndAnOversizeKeptListAreProtocolErrors() {
        for (String key : List.of("../x", "", "a/b", "k".repeat(65))) {
            ByteBuf frame = Unpooled.buffer().writeByte(Wire.RESUME).writeInt(1).writeInt(1);
            Wire.writeEntry(frame, ENTRY);
            Wire.writeString(frame, key);
            assertThatThrownBy(() -> MessageDecoder.decode(frame)).as(key).isInstanceOf(ProtocolException.class).hasMessageContaining("invalid key");
            frame.release();
        }
        ByteBuf kept = Unpooled.buffer().writeByte(Wire.KEPT).writeInt(1).writeInt(Wire.MAX_KEPT + 1);
        assertThatThrownBy(() -> MessageDecoder.decode(kept)).isInstanceOf(ProtocolException.class).hasMessageContaining("exceeds the limit");
        ByteBuf truncated = Unpooled.buffer().writeByte(Wire.KEPT).writeInt(1).writeInt(1000).writeLong(0);
        assertThatThrownBy(() -> MessageDecoder.decode(truncated)).isInstanceOf(ProtocolException.class).hasMessageContaining("truncated");
        kept.release();
        truncated.release();
    }

    @Test
    void traversalAbsoluteAndNulPathsInAnEntryAreProtocolErrors() {
        for (String path : List.of("../outside", "/etc/passwd", "a/../../b", "nul\0byte")) {
            ByteBuf frame = Unpooled.buffer().writeByte(Wire.OPEN).writeInt(1).writeInt(1);
            byte[] bytes = path.getBytes(StandardCharsets.UTF_8);
            frame.writeShort(bytes.length).writeBytes(bytes).writeByte(0).writeLong(1).writeLong(0).writeInt(0).writeInt(-1);
            assertThatThrownBy(() -> MessageDecoder.decode(frame)).as(path).isInstanceOf(ProtocolException.class).hasMessageContaining("invalid path");
            frame.release();
        }
    }

    @Test
    void malformedFramesAreProtocolErrors() {
        List<ByteBuf> bad = List.of(
                Unpooled.buffer().writeByte(0x7f),
                Unpooled.buffer().writeByte(Wire.DONE).writeInt(1),
                Unpooled.buffer().writeByte(Wire.DONE).writeInt(1).writeLong(2).writeByte(0),
                Unpooled.buffer().writeByte(Wire.STAT).writeInt(1).writeShort(60000).writeBytes(new byte[5]),
                Unpooled.buffer().writeByte(Wire.BLOCK).writeInt(1).writeInt(1).writeLong(0).writeBytes(header(10)).writeBytes(new byte[3]),
                Unpooled.buffer().writeByte(Wire.BLOCK).writeInt(1).writeInt(1).writeLong(-5).writeBytes(header(1)).writeBytes(new byte[1]),
                Unpooled.buffer().writeByte(Wire.LISTING).writeInt(1).writeBoolean(true).writeShort(60000));
        for (ByteBuf frame : bad) {
            assertThatThrownBy(() -> MessageDecoder.decode(frame)).isInstanceOf(ProtocolException.class);
            assertThat(frame.release()).isTrue();
        }
    }

    @Test
    void anUnknownTypeThroughThePipelineIsADecoderException() {
        EmbeddedChannel channel = channel(Wire.MAX_FRAME);
        assertThatThrownBy(() -> channel.writeInbound(Unpooled.buffer().writeInt(1).writeByte(0x66))).isInstanceOf(DecoderException.class)
                .hasRootCauseInstanceOf(ProtocolException.class);
        channel.finishAndReleaseAll();
    }

    private static byte[] header(int length) {
        ByteBuffer buffer = ByteBuffer.allocate(BlockHeader.LENGTH);
        new BlockHeader(BlockHeader.RAW, length, length, 0).writeTo(buffer);
        return buffer.array();
    }
}
