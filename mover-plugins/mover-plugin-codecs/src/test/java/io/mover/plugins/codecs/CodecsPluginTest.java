package io.mover.plugins.codecs;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.mover.spi.Codec;
import io.mover.spi.CodecFactory;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.MoverPlugin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CodecsPluginTest {
    @Test
    void registeredWithServiceLoaderAndOffersEveryCodecWithItsWireId() {
        MoverPlugin plugin = ServiceLoader.load(MoverPlugin.class).stream().map(ServiceLoader.Provider::get)
                .filter(p -> p.name().equals("codecs")).findFirst().orElseThrow();
        Map<String, CodecFactory> factories = plugin.codecFactories().stream().collect(Collectors.toMap(CodecFactory::name, Function.identity()));

        assertThat(factories).containsOnlyKeys("lz4", "snappy", "lzo", "zstd", "gzip", "deflate");
        assertThat(factories.get("lz4").wireId()).isEqualTo((byte) 1);
        assertThat(factories.get("snappy").wireId()).isEqualTo((byte) 2);
        assertThat(factories.get("lzo").wireId()).isEqualTo((byte) 3);
        assertThat(factories.get("zstd").wireId()).isEqualTo((byte) 4);
        assertThat(factories.get("gzip").wireId()).isEqualTo((byte) 5);
        assertThat(factories.get("deflate").wireId()).isEqualTo((byte) 6);
        factories.values().forEach(f -> assertThat(f.create(f.defaultLevel()).wireId()).isEqualTo(f.wireId()));
        assertThat(factories.get("lzo").implementation()).isEqualTo("java");
    }

    @Test
    void nativeLibrariesLoadOnLinuxAmd64() {
        boolean linuxAmd64 = System.getProperty("os.name").equals("Linux") && System.getProperty("os.arch").equals("amd64");
        if (!linuxAmd64) {
            return;
        }
        for (String name : List.of("lz4", "snappy", "zstd", "gzip", "deflate")) {
            CodecFamily family = CodecFamily.valueOf(name.toUpperCase(java.util.Locale.ROOT));
            assertThat(CompressionCodecFactory.best(family).implementation()).as(name).isEqualTo("native");
        }
    }

    @Test
    void levelRanges() {
        assertLevels(CodecFamily.ZSTD, 1, 22, 3);
        assertLevels(CodecFamily.GZIP, 1, 9, 6);
        assertLevels(CodecFamily.DEFLATE, 1, 9, 6);
        for (CodecFamily family : List.of(CodecFamily.LZ4, CodecFamily.SNAPPY, CodecFamily.LZO)) {
            CompressionCodecFactory factory = CompressionCodecFactory.best(family);
            assertThat(factory.hasLevels()).isFalse();
            assertThat(factory.create(0).name()).isEqualTo(family.codecName());
        }
    }

    private static void assertLevels(CodecFamily family, int min, int max, int defaultLevel) {
        CompressionCodecFactory factory = CompressionCodecFactory.best(family);
        assertThat(factory.hasLevels()).isTrue();
        assertThat(List.of(factory.minLevel(), factory.maxLevel(), factory.defaultLevel())).containsExactly(min, max, defaultLevel);
        for (int level : new int[] {min - 1, max + 1, -5}) {
            assertThatThrownBy(() -> factory.create(level))
                    .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                    .hasMessageContaining("level " + level).hasMessageContaining(min + " to " + max);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.mover.plugins.codecs.TestData#allImplementations")
    void everyLevelRoundTripsAndHigherLevelsDoNotLoseRatio(CompressionCodecFactory factory) {
        if (!factory.hasLevels()) {
            return;
        }
        byte[] raw = TestData.generate(TestData.Kind.TEXT, 200_000, 9);
        int fastest = 0;
        int best = 0;
        for (int level = factory.minLevel(); level <= factory.maxLevel(); level++) {
            Codec codec = factory.create(level);
            ByteBuffer compressed = ByteBuffer.allocate(codec.maxCompressedLength(raw.length));
            int length = codec.compress(ByteBuffer.wrap(raw), compressed);
            ByteBuffer output = ByteBuffer.allocate(raw.length);
            codec.decompress(compressed.flip(), output, raw.length);
            assertThat(output.array()).as("level " + level).isEqualTo(raw);
            if (level == factory.minLevel()) {
                fastest = length;
            }
            best = length;
        }
        assertThat(best).isLessThanOrEqualTo(fastest);
    }
}
