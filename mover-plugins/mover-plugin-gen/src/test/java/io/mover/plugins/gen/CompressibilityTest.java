package io.mover.plugins.gen;

import io.airlift.compress.v3.Compressor;
import io.airlift.compress.v3.lz4.Lz4JavaCompressor;
import io.airlift.compress.v3.zstd.ZstdJavaCompressor;
import io.mover.spi.Source;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static io.mover.plugins.gen.GenFixtures.open;
import static io.mover.plugins.gen.GenFixtures.read;
import static org.assertj.core.api.Assertions.assertThat;

/** Each kind of data compresses about as docs/gen.md says, with the codecs a transfer uses, block by block as the engine does. */
class CompressibilityTest {
    private static final int BLOCK = 1 << 20;

    @ParameterizedTest
    @CsvSource({
        "zeros,  zstd, 1000, 100000",
        "random, zstd, 0.98, 1.01",
        "text,   zstd, 2.5,  4.5",
        "mixed,  zstd, 1.6,  2.4",
        "zeros,  lz4,  200,  100000",
        "random, lz4,  0.98, 1.01",
        "text,   lz4,  1.5,  3.0",
        "mixed,  lz4,  1.3,  2.0",
    })
    void ratioIsAsAdvertised(String data, String codec, double low, double high) {
        try (Source source = open("gen://?files=1&size=8MiB&data=" + data)) {
            byte[] bytes = read(source, "f0.bin");
            Compressor compressor = codec.equals("zstd") ? new ZstdJavaCompressor() : new Lz4JavaCompressor();
            byte[] out = new byte[compressor.maxCompressedLength(BLOCK)];
            long compressed = 0;
            for (int offset = 0; offset < bytes.length; offset += BLOCK) {
                compressed += compressor.compress(bytes, offset, BLOCK, out, 0, out.length);
            }
            double ratio = (double) bytes.length / compressed;
            System.out.printf("%s %s ratio %.2f%n", data, codec, ratio);
            assertThat(ratio).as(data + " with " + codec).isBetween(low, high);
        }
    }
}
