package io.mover.plugins.nfs;

import io.mover.spi.Entry;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
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
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Per-file failures through ganesha: each a {@link MoverException} with the right code and a message naming the file. */
@Timeout(120)
@ExtendWith(GaneshaExtension.class)
class NfsErrorsTest {
    @TempDir
    Path scratch;

    private PluginContext context() {
        return new PluginContext("errors-job", scratch, Clock.systemUTC(), System.getLogger("test"));
    }

    private static Entry file(String path, long size) {
        return Entry.file(RelativePath.of(path), size, Instant.parse("2025-01-01T00:00:00Z"));
    }

    @Test
    void aFolderTheUidMayNotWriteIsPermissionDenied(Ganesha ganesha) throws Exception {
        ganesha.folder("locked");
        try (Sink sink = new NfsSinkFactory().create(ganesha.uri("locked"), ganesha.config("uid", "12345", "gid", "12345"), context())) {
            assertThatThrownBy(() -> sink.create(RelativePath.of("a.txt"), 1, file("a.txt", 1)))
                    .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.PERMISSION_DENIED))
                    .hasMessageContaining("/export/locked/a.txt").hasMessageContaining("permission denied").hasMessageContaining("uid");
        }
    }

    @Test
    void aFileRemovedOnTheServerWhileReadIsAStaleHandleOrNotFound(Ganesha ganesha) throws Exception {
        Path folder = ganesha.folder("stale");
        Files.write(folder.resolve("gone.bin"), new byte[1 << 20]);
        try (Source source = new NfsSourceFactory().create(ganesha.uri("stale"), ganesha.config("read-ahead", "0", "read-size", "64k"), context());
                SourceReader reader = source.open(RelativePath.of("gone.bin"))) {
            assertThat(reader.read(0, ByteBuffer.allocate(4096))).isEqualTo(4096);
            Files.delete(folder.resolve("gone.bin"));
            ganesha.restart(); // a running ganesha still reads through the file it holds open; a fresh one finds the handle stale
            assertThatThrownBy(() -> reader.read(512 << 10, ByteBuffer.allocate(4096)))
                    .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isIn(ErrorCode.IO_ERROR, ErrorCode.NOT_FOUND))
                    .hasMessageContaining("/export/stale/gone.bin").hasMessageContaining("stale file handle");
        }
    }

    @Test
    void aFullExportIsNoSpaceAndLeavesNothingBehind() throws Exception {
        Path tiny = Files.createDirectories(scratch.resolve("tiny"));
        Process mount = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", tiny.toString()).redirectErrorStream(true).start();
        assumeTrue(mount.waitFor(10, TimeUnit.SECONDS) && mount.exitValue() == 0, "mounting a tmpfs is not permitted here");
        Ganesha small = null;
        try {
            small = Ganesha.start(tiny);
            try (Sink sink = new NfsSinkFactory().create(small.uri(""), small.config("write-size", "256k"), context())) {
                // FSSTAT tells what is free before anything is written (mover bench refuses then)
                assertThat(((io.mover.spi.FreeSpace) sink).usableSpace(RelativePath.ROOT).orElseThrow()).isBetween(1L << 20, 2L << 20);
                SinkWriter writer = sink.create(RelativePath.of("big.bin"), 8 << 20, file("big.bin", 8 << 20));
                assertThatThrownBy(() -> {
                    for (int i = 0; i < 8; i++) {
                        writer.write((long) i << 20, ByteBuffer.allocate(1 << 20));
                    }
                    writer.commit();
                }).isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NO_SPACE))
                        .hasMessageContaining("/export/big.bin").hasMessageContaining("no space");
                writer.abort();
            }
            try (var names = Files.list(tiny)) {
                assertThat(names).isEmpty();
            }
        }
        finally {
            if (small != null) {
                small.stop();
                small.deleteFiles();
            }
            new ProcessBuilder("umount", tiny.toString()).start().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void theExportSaysItsFreeSpace(Ganesha ganesha) throws Exception {
        ganesha.folder("space");
        try (Sink sink = new NfsSinkFactory().create(ganesha.uri("space"), ganesha.config(), context())) {
            assertThat(sink).isInstanceOf(io.mover.spi.FreeSpace.class);
            long free = ((io.mover.spi.FreeSpace) sink).usableSpace(RelativePath.of("not/yet")).orElseThrow();
            assertThat(free).isPositive();
        }
    }

    @Test
    void aNameTooLongForTheServerIsAnInvalidPath() {
        MoverException error = io.mover.plugins.nfs.client.NfsStatus.error(63, "create nfs://h/export/x");
        assertThat(error.code()).isEqualTo(ErrorCode.INVALID_PATH);
        assertThat(error).hasMessage("create nfs://h/export/x: the name is too long for the server");
    }
}
