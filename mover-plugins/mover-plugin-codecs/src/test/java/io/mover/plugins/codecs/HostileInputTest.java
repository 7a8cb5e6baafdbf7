package io.mover.plugins.codecs;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.mover.spi.BlockHeader;
import io.mover.spi.Codec;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

/**
 * Blocks from a peer are untrusted: whatever the bytes, decompress either returns exactly the promised
 * length (the engine's CRC32C then judges the content) or throws CHECKSUM_MISMATCH, and never writes
 * outside the output window. Iterations are bounded; the class timeout catches a hang.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HostileInputTest {
    private static final int RAW_LENGTH = 20_000;
    private static final int ITERATIONS = 150;

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.mover.plugins.codecs.TestData#allImplementations")
    void randomGarbage(CompressionCodecFactory factory) {
        Codec codec = factory.create(factory.defaultLevel());
        SplittableRandom random = new SplittableRandom(1);
        for (int i = 0; i < ITERATIONS; i++) {
            byte[] garbage = new byte[random.nextInt(1, 2_000)];
            random.nextBytes(garbage);
            decodeHostile(codec, garbage, random.nextInt(0, RAW_LENGTH), i % 2 == 0);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.mover.plugins.codecs.TestData#allImplementations")
    void truncatedBlocks(CompressionCodecFactory factory) {
        Codec codec = factory.create(factory.defaultLevel());
        byte[] block = compress(codec, TestData.generate(TestData.Kind.TEXT, RAW_LENGTH, 2));
        SplittableRandom random = new SplittableRandom(2);
        for (int i = 0; i < ITERATIONS; i++) {
            int length = i < 8 ? i : random.nextInt(0, block.length);
            assertRefused(codec, TestData.copyOf(block, length), RAW_LENGTH, i % 2 == 0);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.mover.plugins.codecs.TestData#allImplementations")
    void bitFlips(CompressionCodecFactory factory) {
        Codec codec = factory.create(factory.defaultLevel());
        byte[] raw = TestData.generate(TestData.Kind.TEXT, RAW_LENGTH, 3);
        byte[] block = compress(codec, raw);
        SplittableRandom random = new SplittableRandom(3);
        for (int i = 0; i < ITERATIONS; i++) {
            byte[] flipped = block.clone();
            for (int flips = random.nextInt(1, 4); flips > 0; flips--) {
                int bit = random.nextInt(flipped.length * 8);
                flipped[bit / 8] ^= (byte) (1 << (bit % 8));
            }
            decodeHostile(codec, flipped, RAW_LENGTH, i % 2 == 0);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.mover.plugins.codecs.TestData#allImplementations")
    void wrongRawLengthIsRefused(CompressionCodecFactory factory) {
        Codec codec = factory.create(factory.defaultLevel());
        byte[] block = compress(codec, TestData.generate(TestData.Kind.TEXT, RAW_LENGTH, 4));
        assertRefused(codec, block, RAW_LENGTH - 1, false);
        assertRefused(codec, block, RAW_LENGTH + 1, true);
        assertRefused(codec, block, 0, false);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.mover.plugins.codecs.TestData#allImplementations")
    void hugeClaimedLengthIsRefusedBeforeDecoding(CompressionCodecFactory factory) {
        Codec codec = factory.create(factory.defaultLevel());
        byte[] block = compress(codec, TestData.generate(TestData.Kind.ZEROS, 1_000, 5));
        for (int claimed : new int[] {BlockHeader.MAX_BLOCK_LENGTH + 1, Integer.MAX_VALUE, -1}) {
            assertThatThrownBy(() -> codec.decompress(ByteBuffer.wrap(block), ByteBuffer.allocate(16), claimed))
                    .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.CHECKSUM_MISMATCH))
                    .hasMessageContaining("outside 0 to " + BlockHeader.MAX_BLOCK_LENGTH);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.mover.plugins.codecs.TestData#allImplementations")
    void outputSmallerThanPromisedIsRefused(CompressionCodecFactory factory) {
        Codec codec = factory.create(factory.defaultLevel());
        byte[] block = compress(codec, TestData.generate(TestData.Kind.TEXT, RAW_LENGTH, 6));
        assertThatThrownBy(() -> codec.decompress(ByteBuffer.wrap(block), ByteBuffer.allocate(RAW_LENGTH - 1), RAW_LENGTH))
                .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
        assertThatThrownBy(() -> codec.compress(ByteBuffer.wrap(new byte[100]), ByteBuffer.allocate(10)))
                .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
    }

    private static byte[] compress(Codec codec, byte[] raw) {
        ByteBuffer compressed = ByteBuffer.allocate(codec.maxCompressedLength(raw.length));
        codec.compress(ByteBuffer.wrap(raw), compressed);
        return TestData.remaining(compressed.flip());
    }

    /** Decodes hostile bytes: success must be the full length, failure must be CHECKSUM_MISMATCH, and the guards hold. */
    private static void decodeHostile(Codec codec, byte[] block, int rawLength, boolean direct) {
        ByteBuffer output = TestData.allocate(rawLength, direct);
        try {
            int written = codec.decompress(TestData.wrap(block, !direct), output, rawLength);
            assertThat(written).isEqualTo(rawLength);
        }
        catch (MoverException e) {
            assertThat(e.code()).as(e.getMessage()).isEqualTo(ErrorCode.CHECKSUM_MISMATCH);
        }
        catch (RuntimeException e) {
            fail(codec.name() + " threw " + e + " instead of CHECKSUM_MISMATCH", e);
        }
        assertThat(TestData.guardsIntact(output, rawLength)).as("wrote outside the output window").isTrue();
    }

    private static void assertRefused(Codec codec, byte[] block, int rawLength, boolean direct) {
        ByteBuffer output = TestData.allocate(rawLength, direct);
        assertThatThrownBy(() -> codec.decompress(TestData.wrap(block, !direct), output, rawLength))
                .as("%s block of %d bytes for %d raw bytes", codec.name(), block.length, rawLength)
                .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.CHECKSUM_MISMATCH));
        assertThat(TestData.guardsIntact(output, rawLength)).as("wrote outside the output window").isTrue();
    }
}
