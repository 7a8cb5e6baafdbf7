package io.mover.core.codec;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.mover.spi.BlockHeader;
import io.mover.spi.Codec;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BlockCodecTest {
    private static final int BLOCK = 64 * 1024;
    private final Codec deflate = DeflateTestCodec.FACTORY.create(1);

    private static ByteBuffer direct(byte[] data) {
        ByteBuffer buffer = ByteBuffer.allocateDirect(Math.max(BLOCK, data.length));
        buffer.put(data).flip();
        return buffer;
    }

    private static byte[] text() {
        byte[] line = "2026-11-23 INFO mover copied a file of 4096 bytes in 3 ms\n".getBytes();
        byte[] data = new byte[BLOCK];
        for (int i = 0; i < data.length; i++) {
            data[i] = line[i % line.length];
        }
        return data;
    }

    private static byte[] random() {
        byte[] data = new byte[BLOCK];
        new Random(42).nextBytes(data);
        return data;
    }

    @Test
    void compressibleBlocksAreCompressedAndRoundTrip() {
        BlockCodec codec = new BlockCodec(deflate);
        byte[] data = text();
        ByteBuffer scratch = ByteBuffer.allocateDirect(BlockCodec.encodedCapacity(deflate, BLOCK));

        BlockCodec.EncodedBlock block = codec.encode(direct(data), scratch);

        assertThat(block.header().codecId()).isEqualTo((byte) 100);
        assertThat(block.header().encodedLength()).isLessThan(data.length / 4);
        ByteBuffer out = codec.decode(block, ByteBuffer.allocate(BLOCK));
        byte[] back = new byte[out.remaining()];
        out.get(back);
        assertThat(back).isEqualTo(data);
    }

    @Test
    void incompressibleBlocksAreSentRaw() {
        BlockCodec codec = new BlockCodec(deflate);
        ByteBuffer raw = direct(random());

        BlockCodec.EncodedBlock block = codec.encode(raw, ByteBuffer.allocateDirect(BlockCodec.encodedCapacity(deflate, BLOCK)));

        assertThat(block.header().codecId()).isEqualTo(BlockHeader.RAW);
        assertThat(block.payload()).isSameAs(raw);
        assertThat(codec.decode(block, raw)).isSameAs(raw);
    }

    @Test
    void corruptionIsDetectedByTheChecksum() {
        for (Codec c : Arrays.asList(deflate, null)) {
            BlockCodec codec = new BlockCodec(c);
            byte[] data = c == null ? random() : text(); // the raw block is decoded into another buffer, as after a link
            ByteBuffer scratch = ByteBuffer.allocate(BlockCodec.encodedCapacity(deflate, BLOCK));
            BlockCodec.EncodedBlock block = codec.encode(ByteBuffer.wrap(data.clone()), scratch);
            ByteBuffer payload = block.payload();
            payload.put(payload.position() + payload.remaining() / 2, (byte) (payload.get(payload.position() + payload.remaining() / 2) ^ 0x10));

            assertThatThrownBy(() -> codec.decode(block, ByteBuffer.allocate(BLOCK)))
                    .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.CHECKSUM_MISMATCH));
        }
    }

    @Test
    void aBlockOfAnotherCodecOrTooLargeIsRefused() {
        BlockCodec none = new BlockCodec(null);
        BlockCodec.EncodedBlock foreign = new BlockCodec.EncodedBlock(new BlockHeader((byte) 4, 10, 5, 0), ByteBuffer.allocate(5));
        assertThatThrownBy(() -> none.decode(foreign, ByteBuffer.allocate(10))).hasMessageContaining("codec id 4");

        BlockCodec codec = new BlockCodec(deflate);
        BlockCodec.EncodedBlock huge = new BlockCodec.EncodedBlock(new BlockHeader((byte) 100, 1 << 20, 5, 0), ByteBuffer.allocate(5));
        assertThatThrownBy(() -> codec.decode(huge, ByteBuffer.allocate(BLOCK))).hasMessageContaining("exceeds the buffer");
    }

    @Test
    void codecChoicesAreParsedAndResolvedWithClearErrors() {
        CodecResolver resolver = new CodecResolver(List.of(DeflateTestCodec.FACTORY));
        assertThat(CodecChoice.parse("ZSTD:3")).isEqualTo(new CodecChoice("zstd", java.util.OptionalInt.of(3)));
        assertThat(resolver.resolve(CodecChoice.parse("test-deflate")).level()).isEqualTo(1);
        assertThat(resolver.resolve(CodecChoice.parse("none")).describe()).contains("none");
        assertThatThrownBy(() -> resolver.resolve(CodecChoice.parse("brotli")))
                .isInstanceOfSatisfying(MoverException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.UNKNOWN_CODEC);
                    assertThat(e.getMessage()).contains("test-deflate");
                });
        assertThatThrownBy(() -> resolver.resolve(CodecChoice.parse("test-deflate:12"))).hasMessageContaining("1").hasMessageContaining("9");
        assertThatThrownBy(() -> CodecChoice.parse("zstd:x")).hasMessageContaining("zstd:3");
    }

    @Test
    void aBlockOfZerosGoesAsAHeaderAloneForEveryCodecAndDecodesToZeros() {
        for (Codec c : Arrays.asList(deflate, null)) {
            BlockCodec codec = new BlockCodec(c, true);
            ByteBuffer raw = direct(new byte[BLOCK]);

            BlockCodec.EncodedBlock block = codec.encode(raw, ByteBuffer.allocateDirect(BlockCodec.encodedCapacity(deflate, BLOCK)));

            assertThat(block.header().codecId()).isEqualTo(BlockHeader.ZEROS);
            assertThat(block.header().encodedLength()).isZero();
            assertThat(block.payload().remaining()).isZero();
            assertThat(block.header().crc32c()).isEqualTo(BlockCodec.crc32c(raw));
            ByteBuffer out = codec.decode(block, ByteBuffer.allocate(BLOCK));
            assertThat(out.remaining()).isEqualTo(BLOCK);
            assertThat(out.mismatch(ByteBuffer.allocate(BLOCK))).isEqualTo(-1);
        }
    }

    @Test
    void aOneAtEitherEndIsNotABlockOfZeros() {
        for (int at : new int[] {0, BLOCK - 1}) {
            byte[] data = new byte[BLOCK];
            data[at] = 1;
            BlockCodec codec = new BlockCodec(deflate, true);
            ByteBuffer scratch = ByteBuffer.allocateDirect(BlockCodec.encodedCapacity(deflate, BLOCK));

            BlockCodec.EncodedBlock block = codec.encode(direct(data), scratch);

            assertThat(block.header().codecId()).as("a one at %d", at).isEqualTo((byte) 100);
            ByteBuffer out = codec.decode(block, ByteBuffer.allocate(BLOCK));
            byte[] back = new byte[out.remaining()];
            out.get(back);
            assertThat(back).isEqualTo(data);
        }
    }

    @Test
    void zerosAreSentAsBytesToAFarEndThatDoesNotTakeBlocksOfZeros() {
        BlockCodec codec = new BlockCodec(null);
        ByteBuffer raw = direct(new byte[BLOCK]);

        BlockCodec.EncodedBlock block = codec.encode(raw, ByteBuffer.allocate(0));

        assertThat(block.header().codecId()).isEqualTo(BlockHeader.RAW);
        assertThat(codec.zeros(raw)).isFalse();
    }

    @Test
    void aBlockOfZerosWhoseChecksumIsNotThatOfItsLengthIsRefused() {
        BlockCodec codec = new BlockCodec(null, true);
        BlockCodec.EncodedBlock block = codec.encode(direct(new byte[BLOCK]), ByteBuffer.allocate(0));
        BlockHeader header = block.header();
        BlockCodec.EncodedBlock longer = new BlockCodec.EncodedBlock(new BlockHeader(BlockHeader.ZEROS, BLOCK + 1, 0, header.crc32c()), block.payload());

        assertThatThrownBy(() -> codec.decode(longer, ByteBuffer.allocate(2 * BLOCK)))
                .isInstanceOf(MoverException.class)
                .satisfies(e -> assertThat(((MoverException) e).code()).isEqualTo(ErrorCode.CHECKSUM_MISMATCH));
    }
}
