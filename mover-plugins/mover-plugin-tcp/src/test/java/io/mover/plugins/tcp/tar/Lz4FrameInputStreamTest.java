package io.mover.plugins.tcp.tar;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;

import io.airlift.compress.v3.lz4.Lz4FrameCompressor;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The LZ4 frame reader against what the real {@code lz4} tool writes, with each of its frame options. */
@Timeout(60)
class Lz4FrameInputStreamTest {
    @TempDir
    Path temp;

    private byte[] data;

    @BeforeEach
    void data() {
        // 9 MiB: compressible text with random stretches, over several 4 MiB blocks
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Random random = new Random(3);
        while (bytes.size() < 9 * 1024 * 1024 + 77) {
            bytes.writeBytes(("line " + random.nextInt(1000) + " of a log that compresses\n").getBytes());
            if (random.nextInt(50) == 0) {
                byte[] noise = new byte[random.nextInt(5000)];
                random.nextBytes(noise);
                bytes.writeBytes(noise);
            }
        }
        data = bytes.toByteArray();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "-BD", "-BX", "--content-size", "-B4", "-B5 -BX --no-frame-crc", "-1 -BD -BX"})
    void readsWhatTheLz4ToolWrites(String options) throws Exception {
        Tools.assumeInstalled("lz4", "bash");
        Path raw = Files.write(temp.resolve("data"), data);

        byte[] frames = lz4(options, raw);

        assertThat(readAll(frames)).isEqualTo(data);
    }

    @Test
    void readsFramesOneAfterAnotherAndSkipsSkippableFrames() throws Exception {
        Tools.assumeInstalled("lz4", "bash");
        Path raw = Files.write(temp.resolve("data"), data);
        byte[] linked = lz4("-BD", raw);
        byte[] independent = lz4("", raw);
        byte[] skippable = {0x5A, 0x2A, 0x4D, 0x18, 3, 0, 0, 0, 1, 2, 3};

        byte[] stream = concat(independent, skippable, ours(data), linked);

        byte[] expected = concat(data, data, data);
        assertThat(readAll(stream)).isEqualTo(expected);
    }

    @Test
    void aTruncatedOrCorruptStreamIsAnError() throws Exception {
        Tools.assumeInstalled("lz4", "bash");
        byte[] frames = lz4("", Files.write(temp.resolve("data"), data));

        assertThatThrownBy(() -> readAll(Arrays.copyOf(frames, frames.length / 2))).isInstanceOf(IOException.class).hasMessageContaining("ended");
        byte[] corrupt = frames.clone();
        corrupt[frames.length / 2] ^= 0x55;
        assertThatThrownBy(() -> readAll(corrupt)).isInstanceOf(IOException.class);
        byte[] notLz4 = "definitely not lz4".getBytes();
        assertThatThrownBy(() -> readAll(notLz4)).isInstanceOf(IOException.class).hasMessageContaining("not an LZ4 frame");
    }

    private byte[] lz4(String options, Path raw) throws IOException, InterruptedException {
        Path out = temp.resolve("out.lz4");
        Files.deleteIfExists(out);
        Tools.Pipeline lz4 = Tools.Pipeline.start("lz4 -q " + options + " " + raw + " " + out, temp.resolve("lz4.log"));
        assertThat(lz4.await()).as(lz4.output()).isZero();
        return Files.readAllBytes(out);
    }

    private static byte[] ours(byte[] raw) {
        Lz4FrameCompressor compressor = Lz4FrameCompressor.create();
        byte[] out = new byte[compressor.maxCompressedLength(raw.length)];
        int n = compressor.compress(raw, 0, raw.length, out, 0, out.length);
        return Arrays.copyOf(out, n);
    }

    private static byte[] readAll(byte[] frames) throws IOException {
        try (InputStream in = new Lz4FrameInputStream(new ByteArrayInputStream(frames))) {
            return in.readAllBytes();
        }
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
