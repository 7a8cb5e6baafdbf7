package io.mover.plugins.codecs;

import java.nio.ByteBuffer;
import java.util.List;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

import io.mover.spi.Codec;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

import static org.assertj.core.api.Assertions.assertThat;

/** Properties over generated inputs; tries are bounded so the suite stays fast. */
class CodecPropertiesTest {
    private static final List<CompressionCodecFactory> FACTORIES = TestData.allImplementations();

    @Provide
    Arbitrary<CompressionCodecFactory> factories() {
        return Arbitraries.of(FACTORIES);
    }

    /** Bytes with runs and repeats, the shapes that exercise match finding, as well as plain noise. */
    @Provide
    Arbitrary<byte[]> blocks() {
        Arbitrary<byte[]> noise = Arbitraries.bytes().array(byte[].class).ofMaxSize(70_000);
        Arbitrary<byte[]> runs = Arbitraries.bytes().between((byte) 'a', (byte) 'e').array(byte[].class).ofMaxSize(70_000);
        return Arbitraries.oneOf(noise, runs);
    }

    @Property(tries = 300)
    void everyBlockRoundTrips(@ForAll("factories") CompressionCodecFactory factory, @ForAll("blocks") byte[] raw, @ForAll boolean direct) {
        Codec codec = factory.create(factory.defaultLevel());
        ByteBuffer compressed = direct ? ByteBuffer.allocateDirect(codec.maxCompressedLength(raw.length)) : ByteBuffer.allocate(codec.maxCompressedLength(raw.length));
        codec.compress(ByteBuffer.wrap(raw), compressed);
        ByteBuffer output = direct ? ByteBuffer.allocate(raw.length) : ByteBuffer.allocateDirect(raw.length);
        assertThat(codec.decompress(compressed.flip(), output, raw.length)).isEqualTo(raw.length);
        assertThat(TestData.remaining(output.flip())).isEqualTo(raw);
    }

    @Property(tries = 500)
    void garbageIsRefusedOrFillsExactlyTheWindow(@ForAll("factories") CompressionCodecFactory factory,
            @ForAll @Size(max = 3_000) byte[] garbage, @ForAll @IntRange(max = 100_000) int rawLength) {
        Codec codec = factory.create(factory.defaultLevel());
        ByteBuffer output = TestData.allocate(rawLength, true);
        try {
            assertThat(codec.decompress(ByteBuffer.wrap(garbage), output, rawLength)).isEqualTo(rawLength);
        }
        catch (MoverException e) {
            assertThat(e.code()).isEqualTo(ErrorCode.CHECKSUM_MISMATCH);
        }
        assertThat(TestData.guardsIntact(output, rawLength)).isTrue();
    }
}
