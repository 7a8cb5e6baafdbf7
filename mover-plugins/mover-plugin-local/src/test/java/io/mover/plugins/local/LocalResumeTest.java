package io.mover.plugins.local;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32C;

import io.mover.spi.EndpointUri;
import io.mover.spi.Entry;
import io.mover.spi.PluginConfig;
import io.mover.spi.PluginContext;
import io.mover.spi.RelativePath;
import io.mover.spi.ResumableSink;
import io.mover.spi.ResumableWriter;
import io.mover.spi.Sink;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** Resumable partials: a later writer of the same key keeps the blocks that check out, and the sweep leaves fresh partials alone. */
class LocalResumeTest {
    private static final int BLOCK = 64 * 1024;
    private static final RelativePath PATH = RelativePath.of("big.bin");

    @TempDir
    Path temp;

    private ResumableSink sink() {
        Sink sink = new LocalPlugin().sinkFactories().getFirst().create(EndpointUri.parse(temp.resolve("dst").toString()), PluginConfig.EMPTY,
                new PluginContext("job-1", temp, Clock.systemUTC(), System.getLogger("test")));
        return (ResumableSink) sink;
    }

    private static int crc(byte[] bytes, int offset, int length) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, offset, length);
        return (int) crc.getValue();
    }

    private static void write(ResumableWriter writer, byte[] bytes, int block) {
        writer.write((long) block * BLOCK, ByteBuffer.wrap(bytes, block * BLOCK, BLOCK), crc(bytes, block * BLOCK, BLOCK));
    }

    /** SPI 1.8 writeZeros with a CRC32C: the block is put in place (allocated past the partial's end) and journaled as any. */
    @Test
    void blocksOfZerosAreJournaledAndKeptByALaterWriter() throws IOException {
        Files.createDirectories(temp.resolve("dst"));
        byte[] bytes = new byte[4 * BLOCK];
        new Random(2).nextBytes(bytes);
        java.util.Arrays.fill(bytes, BLOCK, 3 * BLOCK, (byte) 0);
        Entry entry = Entry.file(PATH, bytes.length, Instant.now());

        ResumableWriter first = sink().resume(PATH, bytes.length, entry, "v1");
        write(first, bytes, 0);
        first.writeZeros(2L * BLOCK, BLOCK, io.mover.spi.ZeroBlocks.crc32c(BLOCK));
        first.suspend();

        ResumableWriter second = sink().resume(PATH, bytes.length, entry, "v1");
        assertThat(second.kept()).extracting(ResumableWriter.Block::position).containsExactly(0L, 2L * BLOCK);
        second.writeZeros(BLOCK, BLOCK, io.mover.spi.ZeroBlocks.crc32c(BLOCK));
        write(second, bytes, 3);
        second.commit();
        assertThat(Files.readAllBytes(temp.resolve("dst/big.bin"))).isEqualTo(bytes);
    }

    @Test
    void aLaterWriterOfTheKeyKeepsTheBlocksThatCheckOutAndCommitsTheWholeFile() throws IOException {
        Files.createDirectories(temp.resolve("dst"));
        byte[] bytes = new byte[8 * BLOCK];
        new Random(1).nextBytes(bytes);
        Entry entry = Entry.file(PATH, bytes.length, Instant.now());

        ResumableWriter first = sink().resume(PATH, bytes.length, entry, "v1");
        assertThat(first.kept()).isEmpty();
        for (int block : new int[] {0, 1, 2, 5}) {
            write(first, bytes, block);
        }
        first.suspend();
        Path partial;
        try (var files = Files.list(temp.resolve("dst"))) {
            List<Path> left = files.toList();
            assertThat(left).hasSize(2);
            partial = left.stream().filter(p -> !p.toString().endsWith(".journal")).findFirst().orElseThrow();
        }
        // block 2 torn by the crash: it does not check out and is written again
        try (FileChannel channel = FileChannel.open(partial, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(new byte[100]), 2L * BLOCK + 10);
        }
        assertThat(((Sink) sink()).removeStaleTemporaries(RelativePath.ROOT)).as("a fresh partial survives the sweep").isZero();

        ResumableWriter second = sink().resume(PATH, bytes.length, entry, "v1");
        assertThat(second.kept()).extracting(ResumableWriter.Block::position).containsExactly(0L, (long) BLOCK, 5L * BLOCK);
        for (int block : new int[] {2, 3, 4, 6, 7}) {
            write(second, bytes, block);
        }
        second.commit();

        assertThat(Files.readAllBytes(temp.resolve("dst/big.bin"))).isEqualTo(bytes);
        try (var files = Files.list(temp.resolve("dst"))) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("big.bin");
        }
    }

    @Test
    void anotherVersionStartsAfreshAndOldPartialsAreSweptAfterADay() throws IOException {
        Files.createDirectories(temp.resolve("dst"));
        byte[] bytes = new byte[4 * BLOCK];
        Entry entry = Entry.file(PATH, bytes.length, Instant.now());
        ResumableWriter first = sink().resume(PATH, bytes.length, entry, "v1");
        write(first, bytes, 0);
        first.suspend();

        ResumableWriter other = sink().resume(PATH, bytes.length, entry, "v2");
        assertThat(other.kept()).isEmpty();
        other.abort();

        try (var files = Files.list(temp.resolve("dst"))) {
            for (Path file : files.toList()) {
                Files.setLastModifiedTime(file, FileTime.from(Instant.now().minus(Duration.ofDays(2))));
            }
        }
        assertThat(((Sink) sink()).removeStaleTemporaries(RelativePath.ROOT)).isEqualTo(2);
        try (var files = Files.list(temp.resolve("dst"))) {
            assertThat(files).isEmpty();
        }
    }
}
