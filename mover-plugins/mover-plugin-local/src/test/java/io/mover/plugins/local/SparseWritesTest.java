package io.mover.plugins.local;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.mover.spi.EndpointUri;
import io.mover.spi.Entry;
import io.mover.spi.PluginConfig;
import io.mover.spi.PluginContext;
import io.mover.spi.RelativePath;
import io.mover.spi.Sink;
import io.mover.spi.SinkWriter;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** Blocks of zeros left as holes in a fresh temporary (issue 5), and never over bytes written before. */
final class SparseWritesTest {
    private static final Instant MTIME = Instant.parse("2022-01-02T03:04:05Z");
    private static final int BLOCK = 1 << 20;

    @TempDir
    private Path temporary;

    /** A sink with {@code sparse=true}, the setting under test. */
    private Sink sink(Path root) {
        return sink(root, new LocalSinkFactory().configSpec().parse(Map.of("sparse", "true")));
    }

    private Sink sink(Path root, PluginConfig config) {
        PluginContext context = new PluginContext("job", temporary, Clock.systemUTC(), System.getLogger("test"));
        return new LocalSinkFactory().create(EndpointUri.parse(root.toString()), config, context);
    }

    /** The JDK does not tell a file's allocated blocks; stat(1) does (its %b counts 512-byte units). */
    private static long allocatedBytes(Path file) throws IOException, InterruptedException {
        Process stat = new ProcessBuilder("stat", "-c", "%b", file.toString()).redirectErrorStream(true).start();
        assertThat(stat.waitFor(10, TimeUnit.SECONDS)).isTrue();
        return Long.parseLong(new String(stat.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip()) * 512;
    }

    @Test
    void zerosAreRecognisedInAnySliceAndOnlyThere() {
        ByteBuffer buffer = ByteBuffer.allocateDirect(3 * 65536 + 17);
        assertThat(SparseWrites.zeros(buffer)).isTrue();
        buffer.put(3 * 65536 + 16, (byte) 1);
        assertThat(SparseWrites.zeros(buffer)).isFalse();
        assertThat(SparseWrites.zeros(buffer.slice(0, 3 * 65536 + 16))).isTrue();
        assertThat(buffer.position()).isZero();
    }

    @Test
    void zerosAreLeftOutWhereNothingWasWrittenOnly() {
        SparseWrites writes = new SparseWrites();
        writes.wrote(100, 50);
        writes.wrote(150, 50);
        writes.wrote(300, 10);
        assertThat(writes.leaveOut(0, 100)).isTrue();
        assertThat(writes.leaveOut(199, 1)).isFalse();
        assertThat(writes.leaveOut(200, 100)).isTrue();
        assertThat(writes.leaveOut(250, 51)).isFalse();
        assertThat(writes.leaveOut(310, 5)).isTrue();
        assertThat(writes.end()).isEqualTo(315);
        writes.wrote(190, 120); // joins all three ranges into one
        assertThat(writes.leaveOut(120, 1)).isFalse();
        assertThat(writes.leaveOut(309, 1)).isFalse();
    }

    @Test
    void aFileOfZerosIsCommittedWholeWithoutItsBlocks() throws IOException, InterruptedException {
        Path root = Files.createDirectories(temporary.resolve("root"));
        RelativePath path = RelativePath.of("zeros.bin");
        long size = 8L * BLOCK + 5;
        byte[] expected = new byte[(int) size];
        expected[3 * BLOCK + 7] = 42;
        try (Sink sink = sink(root)) {
            SinkWriter writer = sink.create(path, size, Entry.file(path, size, MTIME));
            for (long position = size - 5; position >= 0; position -= BLOCK) {
                // backwards, as parallel ranges may arrive: the last block first
                int length = (int) Math.min(BLOCK, size - position);
                writer.write(position, ByteBuffer.wrap(expected, (int) position, length).slice());
            }
            writer.write(0, ByteBuffer.allocate(BLOCK)); // the first block again (a retry)
            writer.commit();
        }
        Path file = root.resolve("zeros.bin");
        assertThat(Files.size(file)).isEqualTo(size);
        assertThat(Arrays.equals(Files.readAllBytes(file), expected)).isTrue();
        assertThat(allocatedBytes(file)).isLessThan(2L * BLOCK);
    }

    @Test
    void byDefaultEveryBlockIsWritten() throws IOException, InterruptedException {
        Path root = Files.createDirectories(temporary.resolve("root"));
        RelativePath path = RelativePath.of("full.bin");
        PluginConfig config = new LocalSinkFactory().configSpec().parse(Map.of());
        try (Sink sink = sink(root, config)) {
            SinkWriter writer = sink.create(path, 4L * BLOCK, Entry.file(path, 4L * BLOCK, MTIME));
            for (int block = 0; block < 4; block++) {
                writer.write((long) block * BLOCK, ByteBuffer.allocate(BLOCK));
            }
            writer.commit();
        }
        assertThat(allocatedBytes(root.resolve("full.bin"))).isGreaterThanOrEqualTo(4L * BLOCK);
    }

    @Test
    void zerosOverBytesWrittenBeforeAreWritten() throws IOException {
        Path root = Files.createDirectories(temporary.resolve("root"));
        RelativePath path = RelativePath.of("retried.bin");
        byte[] ones = new byte[BLOCK];
        Arrays.fill(ones, (byte) 1);
        try (Sink sink = sink(root)) {
            SinkWriter writer = sink.create(path, 2L * BLOCK, Entry.file(path, 2L * BLOCK, MTIME));
            writer.write(0, ByteBuffer.wrap(ones));
            writer.write(BLOCK, ByteBuffer.wrap(ones));
            writer.write(BLOCK / 2, ByteBuffer.allocate(BLOCK)); // a retry over both that reads zeros now
            writer.commit();
        }
        byte[] written = Files.readAllBytes(root.resolve("retried.bin"));
        assertThat(written).hasSize(2 * BLOCK);
        assertThat(written[BLOCK / 2 - 1]).isEqualTo((byte) 1);
        assertThat(written[BLOCK / 2]).isZero();
        assertThat(written[BLOCK + BLOCK / 2 - 1]).isZero();
        assertThat(written[BLOCK + BLOCK / 2]).isEqualTo((byte) 1);
    }
}
