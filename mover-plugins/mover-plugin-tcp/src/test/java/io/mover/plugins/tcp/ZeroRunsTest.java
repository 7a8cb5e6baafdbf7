package io.mover.plugins.tcp;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.Random;

import io.mover.spi.BlockHeader;
import io.mover.spi.EncodedBlockWriter;
import io.mover.spi.Entry;
import io.mover.spi.LinkSink;
import io.mover.spi.RelativePath;
import io.mover.spi.Sink;
import io.mover.spi.SinkWriter;
import io.mover.spi.ZeroBlocks;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** Adjacent blocks of zeros cross as one block of zeros (fewer requests, the same file and journal). */
@Timeout(60)
@ExtendWith(LeakWatch.class)
class ZeroRunsTest {
    private static final int MIB = 1 << 20;

    @TempDir
    Path temp;

    @Test
    void adjacentBlocksJoinUpToTheLimitAndOthersStayApart() {
        ZeroRuns runs = new ZeroRuns();
        assertThat(runs.add(0, MIB)).isEmpty();
        assertThat(runs.add(MIB, MIB)).isEmpty();
        assertThat(runs.add(40L * MIB, MIB)).as("another range").isEmpty();
        assertThat(runs.endingAt(MIB)).as("ends at 2 MiB, not 1").isEmpty();
        assertThat(runs.endingAt(2L * MIB)).contains(new ZeroRuns.Run(0, 2 * MIB));
        for (int block = 41; block < 40 + 15; block++) {
            assertThat(runs.add((long) block * MIB, MIB)).isEmpty();
        }
        assertThat(runs.add(55L * MIB, MIB)).as("grown full").containsExactly(new ZeroRuns.Run(40L * MIB, ZeroRuns.MAX_RUN));
        assertThat(runs.add(56L * MIB, 3 * MIB)).isEmpty();
        assertThat(runs.add(59L * MIB, ZeroRuns.MAX_RUN - MIB)).as("cannot join: the run goes, the block stays")
                .containsExactly(new ZeroRuns.Run(56L * MIB, 3 * MIB));
        assertThat(runs.drain()).containsExactly(new ZeroRuns.Run(59L * MIB, ZeroRuns.MAX_RUN - MIB));
        assertThat(runs.drain()).isEmpty();
    }

    @Test
    void aFileOfZerosAndDataArrivesWholeInFewerBlocksOfZeros() throws IOException {
        Path destination = Files.createDirectories(temp.resolve("dst"));
        int block = 256 << 10;
        int blocks = 200;
        byte[] bytes = new byte[blocks * block - 99];
        Random random = new Random(3);
        int zeroBlocks = 0;
        for (int i = 0; i < blocks; i++) {
            // runs of zeros of every length between blocks of data
            if (i % 37 == 5 || i % 11 == 0) {
                int length = Math.min(block, bytes.length - i * block);
                byte[] data = new byte[length];
                random.nextBytes(data);
                System.arraycopy(data, 0, bytes, i * block, length);
            }
            else {
                zeroBlocks++;
            }
        }
        RelativePath path = RelativePath.of("mixed.bin");
        try (LoopbackPeer peer = new LoopbackPeer(destination, temp);
                Sink sink = peer.sender("", Map.of("streams", "2", "resume-min-size", "1MiB"), temp)) {
            SinkWriter writer = sink.create(path, bytes.length, Entry.file(path, bytes.length, Instant.now()));
            long sentBefore = ((LinkSink) sink).load().bytesSent();
            for (int i = 0; i < blocks; i++) {
                int position = i * block;
                int length = Math.min(block, bytes.length - position);
                ByteBuffer raw = ByteBuffer.wrap(bytes, position, length).slice();
                if (raw.mismatch(ZeroBlocks.zeros(length)) < 0) {
                    ((EncodedBlockWriter) writer).writeEncoded(position, new BlockHeader(BlockHeader.ZEROS, length, 0, ZeroBlocks.crc32c(length)),
                            ByteBuffer.allocate(0));
                }
                else {
                    writer.write(position, raw);
                }
            }
            writer.commit();
            long zeroFrames = (((LinkSink) sink).load().bytesSent() - sentBefore - (long) (blocks - zeroBlocks) * BlockHeader.LENGTH
                    - (bytes.length - (long) zeroBlocks * block + 99)) / BlockHeader.LENGTH;
            assertThat(zeroFrames).as("blocks of zeros sent, for %d written", zeroBlocks).isPositive().isLessThan(zeroBlocks / 4);
        }
        assertThat(Files.readAllBytes(destination.resolve("mixed.bin"))).isEqualTo(bytes);
    }

    /** A run the receiver journaled as one block is kept, block by block, by the next session (RESUME's KEPT). */
    @Test
    void aRunOfZerosKeptByThePartialIsNotSentAgain() throws IOException {
        Path destination = Files.createDirectories(temp.resolve("dst"));
        Map<String, String> config = Map.of("streams", "1", "resume-min-size", "1MiB", "connect-timeout", "1s");
        int block = 64 << 10;
        RelativePath path = RelativePath.of("large.bin");
        Entry entry = Entry.file(path, 40L * block, Instant.parse("2026-01-02T03:04:05Z"));
        byte[] bytes = new byte[40 * block];
        new Random(4).nextBytes(bytes);
        java.util.Arrays.fill(bytes, 0, 30 * block, (byte) 0);
        // the first receiver journals 20 blocks of zeros as one run, then goes away with the file unfinished
        LoopbackPeer first = new LoopbackPeer(destination, temp);
        try (Sink sink = first.sender("", config, temp)) {
            SinkWriter partial = sink.create(path, bytes.length, entry);
            for (int i = 0; i < 20; i++) {
                zeros(partial, (long) i * block, block);
            }
            ((PeerWriter) partial).awaitBlocksForTests();
            first.close();
            partial.abort();
        }
        try (LoopbackPeer second = new LoopbackPeer(destination, temp);
                Sink sink = second.sender("", config, temp)) {
            SinkWriter writer = sink.create(path, bytes.length, entry);
            for (int i = 0; i < 40; i++) {
                if (i < 30) {
                    zeros(writer, (long) i * block, block);
                }
                else {
                    writer.write((long) i * block, ByteBuffer.wrap(bytes, i * block, block));
                }
            }
            writer.commit();
            assertThat(((PeerSink) sink).link().resumedBytes()).isEqualTo(20L * block);
        }
        assertThat(Files.readAllBytes(destination.resolve("large.bin"))).isEqualTo(bytes);
    }

    /** As the engine does: asks first, sends a block of zeros only when the partial does not hold it. */
    private static void zeros(SinkWriter writer, long position, int length) {
        int crc = ZeroBlocks.crc32c(length);
        if (!writer.holds(position, length, crc)) {
            ((EncodedBlockWriter) writer).writeEncoded(position, new BlockHeader(BlockHeader.ZEROS, length, 0, crc), ByteBuffer.allocate(0));
        }
    }
}
