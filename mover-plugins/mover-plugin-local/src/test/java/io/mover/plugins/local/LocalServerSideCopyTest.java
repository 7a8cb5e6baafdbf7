package io.mover.plugins.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Stream;

import io.mover.spi.EndpointUri;
import io.mover.spi.Entry;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.PluginConfig;
import io.mover.spi.PluginContext;
import io.mover.spi.RelativePath;
import io.mover.spi.ServerSideCopy;
import io.mover.spi.Sink;
import io.mover.spi.Source;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The local sink's in-kernel copy from a local source: same bytes, attributes and atomicity as a streamed write. */
final class LocalServerSideCopyTest {
    private static final Instant MTIME = Instant.parse("2021-05-06T07:08:09.123456789Z");

    @TempDir
    private Path dir;

    private PluginContext context() {
        return new PluginContext("job-1", dir, Clock.systemUTC(), System.getLogger("test"));
    }

    private Source source(Path root) {
        return new LocalSourceFactory().create(EndpointUri.parse(root.toString()), PluginConfig.EMPTY, context());
    }

    private ServerSideCopy sink(Path root) throws IOException {
        Files.createDirectories(root);
        Sink sink = new LocalSinkFactory().create(EndpointUri.parse(root.toString()), PluginConfig.EMPTY, context());
        return (ServerSideCopy) sink;
    }

    private Path file(Path root, String name, int size, String mode) throws IOException {
        return write(root, name, size, MTIME, mode);
    }

    /** A file of {@code size} random bytes with the given time and (where there are modes) mode. */
    static Path write(Path root, String name, int size, Instant mtime, String mode) throws IOException {
        byte[] bytes = new byte[size];
        new Random(size).nextBytes(bytes);
        Path file = root.resolve(name);
        Files.createDirectories(file.getParent());
        Files.write(file, bytes);
        Files.setLastModifiedTime(file, FileTime.from(mtime));
        if (LocalFiles.POSIX) {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
        }
        return file;
    }

    private static String[] names(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            return files.map(f -> f.getFileName().toString()).sorted().toArray(String[]::new);
        }
    }

    @Test
    void copiesBytesMtimeAndModeAndLeavesNoTemporary() throws IOException {
        Path in = dir.resolve("in");
        Path original = file(in, "sub/data.bin", 3 * 1024 * 1024 + 7, "rwxr-x---");
        Source source = source(in);
        Entry entry = source.stat(RelativePath.of("sub/data.bin")).orElseThrow();
        Path out = dir.resolve("out");
        Files.createDirectories(out.resolve("sub"));

        Optional<Entry> copied = sink(out).copyFrom(source, entry, RelativePath.of("sub/data.bin"));

        Path target = out.resolve("sub/data.bin");
        assertThat(copied).isPresent();
        assertThat(Files.mismatch(original, target)).isEqualTo(-1L);
        assertThat(Files.getLastModifiedTime(target).toInstant()).isEqualTo(MTIME);
        assertThat(copied.get().size()).isEqualTo(Files.size(original));
        if (LocalFiles.POSIX) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(target))).isEqualTo("rwxr-x---");
        }
        assertThat(names(out.resolve("sub"))).containsExactly("data.bin");
    }

    /** Bits a usual umask (022) removes at create time must still arrive: the explicit chmod path. */
    @Test
    void aModeTheUmaskWouldCutIsSetExplicitly() throws IOException {
        assumeTrue(LocalFiles.POSIX, "no POSIX modes here");
        Path in = dir.resolve("in");
        file(in, "open.sh", 10, "rwxrwxrwx");
        Source source = source(in);
        Entry entry = source.stat(RelativePath.of("open.sh")).orElseThrow();

        sink(dir.resolve("out")).copyFrom(source, entry, RelativePath.of("open.sh"));

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("out/open.sh")))).isEqualTo("rwxrwxrwx");
    }

    @Test
    void aFileThatChangedSizeIsRefusedAndNothingIsLeft() throws IOException {
        Path in = dir.resolve("in");
        Path original = file(in, "grows.log", 1000, "rw-r--r--");
        Source source = source(in);
        Entry entry = source.stat(RelativePath.of("grows.log")).orElseThrow();
        Files.write(original, new byte[2000]);
        Path out = dir.resolve("out");
        ServerSideCopy sink = sink(out);

        assertThatThrownBy(() -> sink.copyFrom(source, entry, RelativePath.of("grows.log")))
                .isInstanceOf(MoverException.class)
                .satisfies(e -> assertThat(((MoverException) e).code()).isEqualTo(ErrorCode.SOURCE_CHANGED));
        assertThat(names(out)).isEmpty();
    }

    @Test
    void anotherKindOfSourceIsDeclined() throws IOException {
        Path in = dir.resolve("in");
        file(in, "a.txt", 10, "rw-r--r--");
        Source local = source(in);
        Entry entry = local.stat(RelativePath.of("a.txt")).orElseThrow();
        // a source of another plugin: any Source that is not this plugin's own
        Source foreign = (Source) java.lang.reflect.Proxy.newProxyInstance(Source.class.getClassLoader(), new Class<?>[] {Source.class},
                (proxy, method, args) -> method.invoke(local, args));

        assertThat(sink(dir.resolve("out")).copyFrom(foreign, entry, RelativePath.of("a.txt"))).isEmpty();
        assertThat(names(dir.resolve("out"))).isEmpty();
    }
}
