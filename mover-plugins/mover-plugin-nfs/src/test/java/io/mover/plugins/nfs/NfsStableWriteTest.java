package io.mover.plugins.nfs;

import io.mover.spi.Attributes;
import io.mover.spi.Entry;
import io.mover.spi.EntryType;
import io.mover.spi.PluginContext;
import io.mover.spi.RelativePath;
import io.mover.spi.Sink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Instant;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A file written whole by one WRITE goes as FILE_SYNC and needs no COMMIT; a file of several WRITEs still
 * goes UNSTABLE and is committed. Either way it lands whole, with its mode and mtime, under its final name only.
 */
@Timeout(60)
@ExtendWith(GaneshaExtension.class)
class NfsStableWriteTest {
    private static final Instant MTIME = Instant.parse("2025-06-07T08:09:10Z");

    @TempDir
    Path scratch;

    @Test
    void aFileWrittenByOneWriteIsStableWithoutACommitAndALargerOneIsCommitted(Ganesha ganesha) throws Exception {
        Path folder = ganesha.folder("stable");
        PluginContext context = new PluginContext("stable-job", scratch, Clock.systemUTC(), System.getLogger("test"));
        byte[] small = bytes(100 << 10, 1);
        byte[] larger = bytes(300 << 10, 2);
        try (Sink sink = new NfsSinkFactory().create(ganesha.uri("stable"), ganesha.config("write-size", "128k"), context)) {
            NfsSinkWriter one = writer(sink, "small.bin", small.length);
            one.write(0, ByteBuffer.wrap(small));
            assertThat(Files.exists(folder.resolve("small.bin"))).as("not visible before the commit").isFalse();
            one.commit();
            assertThat(one.commits()).as("COMMITs for a file of one FILE_SYNC WRITE").isZero();

            NfsSinkWriter several = writer(sink, "larger.bin", larger.length);
            several.write(0, ByteBuffer.wrap(larger));
            several.commit();
            assertThat(several.commits()).as("COMMITs for a file of three UNSTABLE WRITEs").isEqualTo(1);

            NfsSinkWriter part = writer(sink, "part.bin", small.length);
            part.write(0, ByteBuffer.wrap(small, 0, 1000));
            part.write(1000, ByteBuffer.wrap(small, 1000, small.length - 1000));
            part.commit();
            assertThat(part.commits()).as("a file in two writes, each smaller than the file, is UNSTABLE and committed").isEqualTo(1);
        }
        for (String name : new String[] {"small.bin", "larger.bin", "part.bin"}) {
            Path stored = folder.resolve(name);
            assertThat(Files.getLastModifiedTime(stored).toInstant()).as(name).isEqualTo(MTIME);
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(stored))).as(name).isEqualTo("rw-r-----");
        }
        assertThat(Files.readAllBytes(folder.resolve("small.bin"))).isEqualTo(small);
        assertThat(Files.readAllBytes(folder.resolve("larger.bin"))).isEqualTo(larger);
        assertThat(Files.readAllBytes(folder.resolve("part.bin"))).isEqualTo(small);
        try (var left = Files.list(folder)) {
            assertThat(left.map(path -> path.getFileName().toString())).containsExactlyInAnyOrder("small.bin", "larger.bin", "part.bin");
        }
    }

    private static NfsSinkWriter writer(Sink sink, String name, long size) {
        Entry entry = new Entry(RelativePath.of(name), EntryType.FILE, size, MTIME, Attributes.ofMode(0640));
        return (NfsSinkWriter) sink.create(RelativePath.of(name), size, entry);
    }

    private static byte[] bytes(int length, long seed) {
        byte[] data = new byte[length];
        new Random(seed).nextBytes(data);
        return data;
    }
}
