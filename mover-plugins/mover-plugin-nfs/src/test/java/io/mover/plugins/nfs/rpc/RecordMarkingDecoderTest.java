package io.mover.plugins.nfs.rpc;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.TooLongFrameException;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RecordMarkingDecoderTest {
    /** Two records, the first in three fragments, as one byte stream. */
    private static byte[] stream(byte[] first, byte[] second) {
        ByteBuf out = Unpooled.buffer();
        int[] cuts = {0, 3, 10, first.length};
        for (int i = 0; i < 3; i++) {
            int length = cuts[i + 1] - cuts[i];
            out.writeInt((i == 2 ? 0x8000_0000 : 0) | length);
            out.writeBytes(first, cuts[i], length);
        }
        out.writeInt(0x8000_0000 | second.length);
        out.writeBytes(second);
        byte[] bytes = new byte[out.readableBytes()];
        out.readBytes(bytes);
        out.release();
        return bytes;
    }

    private static byte[] bytes(ByteBuf buffer) {
        byte[] bytes = new byte[buffer.readableBytes()];
        buffer.readBytes(bytes);
        buffer.release();
        return bytes;
    }

    @Test
    void reassemblesFragmentedRecordsWhereverTheStreamIsSplit() {
        Random random = new Random(7);
        byte[] first = new byte[37];
        byte[] second = new byte[12];
        random.nextBytes(first);
        random.nextBytes(second);
        byte[] stream = stream(first, second);
        for (int split = 0; split <= stream.length; split++) {
            for (int secondSplit = split; secondSplit <= stream.length; secondSplit += 5) {
                EmbeddedChannel channel = new EmbeddedChannel(new RecordMarkingDecoder(1024));
                channel.writeInbound(Unpooled.wrappedBuffer(stream, 0, split));
                channel.writeInbound(Unpooled.wrappedBuffer(stream, split, secondSplit - split));
                channel.writeInbound(Unpooled.wrappedBuffer(stream, secondSplit, stream.length - secondSplit));
                assertThat(bytes(channel.readInbound())).as("split at %d and %d", split, secondSplit).isEqualTo(first);
                assertThat(bytes(channel.readInbound())).isEqualTo(second);
                assertThat((Object) channel.readInbound()).isNull();
                assertThat(channel.finish()).isFalse();
            }
        }
    }

    @Test
    void anOversizeRecordFailsBeforeItIsBuffered() {
        EmbeddedChannel channel = new EmbeddedChannel(new RecordMarkingDecoder(1024));
        ByteBuf header = Unpooled.buffer().writeInt(0x8000_0000 | 4096).writeZero(16);
        assertThatThrownBy(() -> channel.writeInbound(header)).isInstanceOf(TooLongFrameException.class).hasMessageContaining("exceeds the limit of 1024");
        channel.finishAndReleaseAll();
    }

    @Test
    void fragmentsAddingUpPastTheLimitFailToo() {
        EmbeddedChannel channel = new EmbeddedChannel(new RecordMarkingDecoder(1024));
        channel.writeInbound(Unpooled.buffer().writeInt(1000).writeZero(1000));
        assertThatThrownBy(() -> channel.writeInbound(Unpooled.buffer().writeInt(0x8000_0000 | 100).writeZero(100)))
                .isInstanceOf(TooLongFrameException.class);
        channel.finishAndReleaseAll();
    }

    @Test
    void aRecordSharesTheReadBuffersAndReleasesThemWhenReleased() {
        EmbeddedChannel channel = new EmbeddedChannel(new RecordMarkingDecoder(1024));
        ByteBuf first = Unpooled.buffer().writeInt(0x8000_0000 | 8).writeLong(42);
        ByteBuf second = Unpooled.buffer().writeInt(0x8000_0000 | 6).writeShort(1);
        ByteBuf third = Unpooled.buffer().writeInt(7);
        channel.writeInbound(first, second, third);
        ByteBuf one = channel.readInbound();
        ByteBuf two = channel.readInbound();
        // no copy: the records hold the buffers the socket filled
        assertThat(first.refCnt()).isEqualTo(1);
        assertThat(second.refCnt()).isEqualTo(1);
        assertThat(third.refCnt()).isEqualTo(1);
        first.setLong(4, 43);
        assertThat(one.getLong(0)).isEqualTo(43);
        assertThat(two.readShort()).isEqualTo((short) 1);
        assertThat(two.readInt()).isEqualTo(7);
        one.release();
        two.release();
        assertThat(first.refCnt() + second.refCnt() + third.refCnt()).isZero();
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void aConnectionThatEndsInsideARecordReleasesWhatItHeld() {
        EmbeddedChannel channel = new EmbeddedChannel(new RecordMarkingDecoder(1024));
        ByteBuf partial = Unpooled.buffer().writeInt(0x8000_0000 | 100).writeZero(40);
        channel.writeInbound(partial);
        assertThat((Object) channel.readInbound()).isNull();
        assertThat(partial.refCnt()).isEqualTo(1);
        channel.close();
        assertThat(partial.refCnt()).isZero();
    }
}
