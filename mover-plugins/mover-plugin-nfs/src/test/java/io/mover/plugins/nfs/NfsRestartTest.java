package io.mover.plugins.nfs;

import io.mover.spi.Entry;
import io.mover.spi.PluginContext;
import io.mover.spi.RelativePath;
import io.mover.spi.Sink;
import io.mover.spi.Source;
import io.mover.spi.SourceReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Ganesha restarted between UNSTABLE WRITEs and their COMMIT: the new server's write verifier differs, so
 * the writer sends those WRITEs again (RFC 1813 §3.3.21) before it commits, over reconnected connections.
 * A reader open across the restart reconnects and goes on.
 */
@Timeout(120)
@ExtendWith(GaneshaExtension.class)
class NfsRestartTest {
    @TempDir
    Path scratch;

    @Test
    void unstableWritesFromBeforeARestartAreSentAgainAndTheFileIsWhole(Ganesha ganesha) throws Exception {
        ganesha.folder("restart");
        PluginContext context = new PluginContext("restart-job", scratch, Clock.systemUTC(), System.getLogger("test"));
        byte[] data = new byte[6 << 20];
        new Random(5).nextBytes(data);
        try (Sink sink = new NfsSinkFactory().create(ganesha.uri("restart"), ganesha.config("write-size", "64k", "connections", "2"), context)) {
            NfsSinkWriter writer = (NfsSinkWriter) sink.create(RelativePath.of("f.bin"), data.length,
                    Entry.file(RelativePath.of("f.bin"), data.length, Instant.parse("2025-03-04T05:06:07Z")));
            writer.write(0, ByteBuffer.wrap(data, 0, 3 << 20));
            ganesha.restart();
            writer.write(3 << 20, ByteBuffer.wrap(data, 3 << 20, 3 << 20));
            writer.commit();
            assertThat(writer.resentWrites()).as("WRITEs sent again after the verifier changed").isPositive();
            assertThat(((io.mover.spi.PluginCounters) sink).counters()).as("what the job summary reports")
                    .containsEntry("nfs.resent-unstable-writes", writer.resentWrites())
                    .hasEntrySatisfying("nfs.reconnects", reconnects -> assertThat(reconnects).isPositive())
                    .containsKey("nfs.retransmissions");
        }
        Path stored = ganesha.export().resolve("restart/f.bin");
        assertThat(Files.readAllBytes(stored)).isEqualTo(data);
        assertThat(Files.getLastModifiedTime(stored).toInstant()).isEqualTo(Instant.parse("2025-03-04T05:06:07Z"));

        try (Source source = new NfsSourceFactory().create(ganesha.uri("restart"), ganesha.config("read-size", "256k"), context);
                SourceReader reader = source.open(RelativePath.of("f.bin"))) {
            ByteBuffer back = ByteBuffer.allocate(data.length);
            reader.read(0, back.limit(1 << 20));
            ganesha.restart();
            for (int i = 0; i < 100 && back.position() < data.length; i++) {
                reader.read(back.position(), back.limit(data.length));
            }
            assertThat(back.array()).isEqualTo(data);
        }
    }
}
