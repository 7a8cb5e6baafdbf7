package io.mover.plugins.nfs;

import io.mover.spi.EndpointUri;
import io.mover.spi.Entry;
import io.mover.spi.PluginContext;
import io.mover.spi.RelativePath;
import io.mover.spi.Sink;
import io.mover.spi.SinkWriter;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Several connections, and several server addresses for one export: a large file written and read in
 * parallel ranges, many small files at once. Ganesha listens on one address, so the "two servers" here
 * are that address twice: two clients, each with its own connections, as with two NetApp LIFs.
 */
@Timeout(120)
@ExtendWith(GaneshaExtension.class)
class NfsStripingTest {
    @TempDir
    Path scratch;

    @Test
    void rangesOfALargeFileAndManySmallFilesOverSeveralConnectionsAndServers(Ganesha ganesha) throws Exception {
        ganesha.folder("striped");
        EndpointUri uri = EndpointUri.parse("nfs://127.0.0.1:" + ganesha.nfsPort() + ",127.0.0.1:" + ganesha.nfsPort() + "/export/striped");
        PluginContext context = new PluginContext("striping", scratch, Clock.systemUTC(), System.getLogger("test"));
        byte[] large = new byte[24 << 20];
        new Random(11).nextBytes(large);
        int range = 4 << 20;
        try (Sink sink = new NfsSinkFactory().create(uri, ganesha.config("connections", "3", "write-size", "256k"), context);
                ExecutorService workers = Executors.newVirtualThreadPerTaskExecutor()) {
            SinkWriter writer = sink.create(RelativePath.of("large.bin"), large.length, Entry.file(RelativePath.of("large.bin"), large.length, Instant.EPOCH));
            List<Future<?>> done = new ArrayList<>();
            for (int start = large.length - range; start >= 0; start -= range) {
                int from = start;
                done.add(workers.submit(() -> writer.write(from, ByteBuffer.wrap(large, from, range))));
            }
            for (int i = 0; i < 40; i++) {
                String name = "small-" + i;
                done.add(workers.submit(() -> {
                    SinkWriter small = sink.create(RelativePath.of(name), name.length(), Entry.file(RelativePath.of(name), name.length(), Instant.EPOCH));
                    small.write(0, ByteBuffer.wrap(name.getBytes()));
                    return small.commit();
                }));
            }
            for (Future<?> each : done) {
                each.get();
            }
            writer.commit();
        }
        Path stored = ganesha.export().resolve("striped");
        assertThat(Files.readAllBytes(stored.resolve("large.bin"))).isEqualTo(large);
        assertThat(Files.readString(stored.resolve("small-17"))).isEqualTo("small-17");

        try (Source source = new NfsSourceFactory().create(uri, ganesha.config("connections", "3", "read-size", "128k"), context);
                SourceReader reader = source.open(RelativePath.of("large.bin"));
                ExecutorService workers = Executors.newVirtualThreadPerTaskExecutor()) {
            byte[] back = new byte[large.length];
            List<Future<?>> done = new ArrayList<>();
            for (int start = 0; start < large.length; start += range) {
                int from = start;
                done.add(workers.submit(() -> {
                    ByteBuffer buffer = ByteBuffer.wrap(back, from, range);
                    for (int i = 0; i < 1000 && buffer.hasRemaining(); i++) {
                        reader.read(from + (buffer.position() - from), buffer);
                    }
                    return null;
                }));
            }
            for (Future<?> each : done) {
                each.get();
            }
            assertThat(back).isEqualTo(large);
            // the ranges of one file went over every connection of both addresses, not one flow
            assertThat(((io.mover.spi.PluginCounters) source).counters()).containsEntry("nfs.connections-used", 6L);
            assertThat(source.list(RelativePath.ROOT).count()).isEqualTo(41);
        }
    }
}
