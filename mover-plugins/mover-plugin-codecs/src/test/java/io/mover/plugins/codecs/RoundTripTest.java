package io.mover.plugins.codecs;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.mover.spi.Codec;

import static org.assertj.core.api.Assertions.assertThat;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RoundTripTest {
    private static final int[] SIZES = {0, 1, 64 << 10, 4 << 20};

    static List<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (CompressionCodecFactory factory : TestData.allImplementations()) {
            for (boolean direct : new boolean[] {false, true}) {
                for (int size : SIZES) {
                    for (TestData.Kind kind : TestData.Kind.values()) {
                        cases.add(Arguments.of(factory, direct, size, kind));
                    }
                }
            }
        }
        return cases;
    }

    @ParameterizedTest(name = "{0} direct={1} size={2} {3}")
    @MethodSource("cases")
    void roundTrips(CompressionCodecFactory factory, boolean direct, int size, TestData.Kind kind) {
        Codec codec = factory.create(factory.defaultLevel());
        byte[] raw = TestData.generate(kind, size, size * 31L + kind.ordinal());

        ByteBuffer input = TestData.wrap(raw, direct);
        int maxLength = codec.maxCompressedLength(size);
        ByteBuffer compressed = TestData.allocate(maxLength, !direct);
        int compressedLength = codec.compress(input, compressed);

        assertThat(input.position()).isEqualTo(input.limit());
        assertThat(compressed.position()).isEqualTo(TestData.GUARD + compressedLength);
        assertThat(compressedLength).isBetween(0, maxLength);
        assertThat(TestData.guardsIntact(compressed, maxLength)).as("compress wrote outside its window").isTrue();
        if (kind == TestData.Kind.ZEROS && size >= 64 << 10) {
            assertThat(compressedLength).isLessThan(size / 20);
        }

        compressed.limit(compressed.position()).position(TestData.GUARD);
        ByteBuffer output = TestData.allocate(size, direct);
        int written = codec.decompress(compressed, output, size);

        assertThat(written).isEqualTo(size);
        assertThat(compressed.hasRemaining()).isFalse();
        assertThat(output.position()).isEqualTo(TestData.GUARD + size);
        assertThat(TestData.guardsIntact(output, size)).as("decompress wrote outside its window").isTrue();
        output.flip().position(TestData.GUARD);
        assertThat(TestData.remaining(output)).isEqualTo(raw);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.mover.plugins.codecs.TestData#allImplementations")
    void readOnlyInputAndReusedInstance(CompressionCodecFactory factory) {
        Codec codec = factory.create(factory.defaultLevel());
        for (int round = 0; round < 3; round++) {
            byte[] raw = TestData.generate(TestData.Kind.TEXT, 10_000 + round, round);
            ByteBuffer compressed = ByteBuffer.allocate(codec.maxCompressedLength(raw.length));
            codec.compress(ByteBuffer.wrap(raw).asReadOnlyBuffer(), compressed);
            compressed.flip();
            ByteBuffer output = ByteBuffer.allocateDirect(raw.length);
            codec.decompress(compressed.asReadOnlyBuffer(), output, raw.length);
            assertThat(TestData.remaining(output.flip())).isEqualTo(raw);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.mover.plugins.codecs.TestData#allImplementations")
    void nativeAndJavaAgreeOnTheFormat(CompressionCodecFactory factory) {
        CodecFamily family = CodecFamily.valueOf(factory.name().toUpperCase(java.util.Locale.ROOT));
        CompressionCodecFactory other = new CompressionCodecFactory(family, factory.implementation().equals("java") && family.nativeAvailable());
        byte[] raw = TestData.generate(TestData.Kind.TEXT, 100_000, 5);
        Codec encoder = factory.create(factory.defaultLevel());
        ByteBuffer compressed = ByteBuffer.allocate(encoder.maxCompressedLength(raw.length));
        encoder.compress(ByteBuffer.wrap(raw), compressed);
        ByteBuffer output = ByteBuffer.allocate(raw.length);
        other.create(other.defaultLevel()).decompress(compressed.flip(), output, raw.length);
        assertThat(output.array()).isEqualTo(raw);
    }
}
