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
import io.mover.spi.MoverException;
import io.mover.spi.RelativePath;
import io.mover.spi.Sink;
import io.mover.spi.SinkWriter;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Connections that drop in the middle of a file: the file goes on where it was, and nothing partial is ever visible. */
@Timeout(60)
@ExtendWith(LeakWatch.class)
class PeerResumeTest {
    private static final int BLOCK = 64 * 1024;

    @TempDir
    Path temp;

    @Test
    void aFileGoesOnWhenItsConnectionsDropMidway() throws IOException {
        Path destination = Files.createDirectories(temp.resolve("dst"));
        byte[] bytes = new byte[160 * BLOCK + 777];
        new Random(5).nextBytes(bytes);
        try (LoopbackPeer peer = new LoopbackPeer(destination, temp);
                Sink sink = peer.sender("", Map.of("streams", "2"), temp)) {
            PeerLink link = ((PeerSink) sink).link();
            RelativePath path = RelativePath.of("large.bin");
            SinkWriter writer = sink.create(path, bytes.length, Entry.file(path, bytes.length, Instant.now()));
            for (int position = 0, block = 0; position < bytes.length; position += BLOCK, block++) {
                if (block == 40 || block == 100) {
                    // a connection dies with blocks in flight on it
                    link.channelForTests().close();
                }
                writer.write(position, ByteBuffer.wrap(bytes, position, Math.min(BLOCK, bytes.length - position)));
            }
            writer.commit();
        }
        assertThat(Files.readAllBytes(destination.resolve("large.bin"))).isEqualTo(bytes);
    }

    @Test
    void aJobsDestinationIsClosedOnceItsLastSessionEndsAndOpenedAfreshForTheNext() throws Exception {
        Path destination = Files.createDirectories(temp.resolve("dst"));
        try (LoopbackPeer peer = new LoopbackPeer(destination, temp)) {
            try (Sink first = peer.sender("", Map.of("streams", "1"), temp, "job-a")) {
                RelativePath path = RelativePath.of("a.txt");
                SinkWriter writer = first.create(path, 1, Entry.file(path, 1, Instant.now()));
                writer.write(0, ByteBuffer.wrap(new byte[] {'a'}));
                writer.commit();
            }
            int opened = peer.destinations.size(); // the job's, and the one the receiver opened to describe itself
            // the session's grace is 1 s: then the job's sink is closed, not held until the receiver stops
            for (int i = 0; i < 100 && !peer.logged("closed the destination of a sender job"); i++) {
                Thread.sleep(100);
            }
            assertThat(peer.logged("closed the destination of a sender job")).as(String.join("\n", peer.log)).isTrue();
            try (Sink again = peer.sender("", Map.of("streams", "1"), temp, "job-a")) {
                assertThat(again.stat(RelativePath.of("a.txt"))).isPresent();
            }
            assertThat(peer.destinations).as("a fresh destination for the job's next session").hasSize(opened + 1);
        }
    }

    @Test
    void whenTheReceiverGoesAwayTheFileFailsRetryablyAndNothingPartialIsLeft() throws IOException {
        Path destination = Files.createDirectories(temp.resolve("dst"));
        LoopbackPeer peer = new LoopbackPeer(destination, temp);
        try (Sink sink = peer.sender("", Map.of("streams", "2", "connect-timeout", "1s"), temp)) {
            RelativePath path = RelativePath.of("cut.bin");
            SinkWriter writer = sink.create(path, 10L * BLOCK, Entry.file(path, 10L * BLOCK, Instant.now()));
            writer.write(0, ByteBuffer.wrap(new byte[BLOCK]));
            peer.close();

            assertThatThrownBy(() -> {
                for (int block = 1; block < 10; block++) {
                    ((EncodedBlockWriter) writer).writeEncoded((long) block * BLOCK, new BlockHeader(BlockHeader.RAW, BLOCK, BLOCK, 0), ByteBuffer.allocate(BLOCK));
                }
                writer.commit();
            }).isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.isRetryable()).as(e.getMessage()).isTrue());
            writer.abort();
        }
        try (var files = Files.list(destination)) {
            assertThat(files).isEmpty();
        }
    }

    @Test
    void aLargeFileContinuesFromTheBlocksANewReceiverFindsInThePartialTheOldOneLeft() throws IOException {
        Path destination = Files.createDirectories(temp.resolve("dst"));
        byte[] bytes = new byte[40 * BLOCK + 5];
        new Random(9).nextBytes(bytes);
        RelativePath path = RelativePath.of("large.bin");
        Entry entry = Entry.file(path, bytes.length, Instant.parse("2026-01-02T03:04:05Z"));
        Map<String, String> config = Map.of("streams", "2", "resume-min-size", "1MiB", "connect-timeout", "1s");
        LoopbackPeer first = new LoopbackPeer(destination, temp);
        try (Sink sink = first.sender("", config, temp)) {
            SinkWriter writer = sink.create(path, bytes.length, entry);
            for (int position = 0; position < 25 * BLOCK; position += BLOCK) {
                writer.write(position, ByteBuffer.wrap(bytes, position, BLOCK));
            }
            // every block so far acknowledged, then the receiver goes away with the file unfinished
            ((PeerWriter) writer).awaitBlocksForTests();
            first.close();
            writer.abort();
        }
        try (var files = Files.list(destination)) {
            assertThat(files.map(p -> p.getFileName().toString())).as("the partial and its journal stay").hasSize(2).allMatch(name -> name.startsWith(".mover."));
        }

        try (LoopbackPeer second = new LoopbackPeer(destination, temp);
                Sink sink = second.sender("", config, temp)) {
            SinkWriter writer = sink.create(path, bytes.length, entry);
            for (int position = 0; position < bytes.length; position += BLOCK) {
                writer.write(position, ByteBuffer.wrap(bytes, position, Math.min(BLOCK, bytes.length - position)));
            }
            writer.commit();
            assertThat(((PeerSink) sink).link().resumedBytes()).isEqualTo(25L * BLOCK);
            assertThat(second.logged("resumed large.bin: " + 25 * BLOCK + " bytes kept from an earlier run, " + (15 * BLOCK + 5) + " received"))
                    .as(String.join("\n", second.log)).isTrue();
        }
        assertThat(Files.readAllBytes(destination.resolve("large.bin"))).isEqualTo(bytes);
        try (var files = Files.list(destination)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("large.bin");
        }
    }
}
