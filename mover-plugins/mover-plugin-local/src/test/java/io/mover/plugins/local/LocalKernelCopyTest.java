package io.mover.plugins.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.stream.Stream;

import io.mover.spi.EndpointUri;
import io.mover.spi.Entry;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.PluginConfig;
import io.mover.spi.PluginContext;
import io.mover.spi.RelativePath;
import io.mover.spi.Source;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The raw-descriptor copy ({@link LocalKernelCopy}): unnamed files linked into place, and each fallback. */
final class LocalKernelCopyTest {
    private static final Instant MTIME = Instant.parse("2020-02-03T04:05:06.987654321Z");

    @TempDir
    private Path dir;
    private Path in;
    private Path out;
    private Source source;

    @BeforeEach
    void setUp() throws IOException {
        assumeTrue(LinuxCalls.INSTANCE.isPresent(), "Linux only");
        in = dir.resolve("in");
        out = dir.resolve("out");
        Files.createDirectories(out.resolve("sub"));
        Files.createDirectories(in);
        source = new LocalSourceFactory().create(EndpointUri.parse(in.toString()), PluginConfig.EMPTY, context());
    }

    private PluginContext context() {
        return new PluginContext("job-7", dir, Clock.systemUTC(), System.getLogger("test"));
    }

    private LocalSink sink(boolean tmpfile) {
        return new LocalSink(out, "job-7", false, true, tmpfile);
    }

    private Entry file(String name, int size) throws IOException {
        LocalServerSideCopyTest.write(in, name, size, MTIME, "rw-r-----");
        return source.stat(RelativePath.of(name)).orElseThrow();
    }

    private String[] names(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            return files.map(f -> f.getFileName().toString()).sorted().toArray(String[]::new);
        }
    }

    @ParameterizedTest(name = "tmpfile={0}")
    @ValueSource(booleans = {true, false})
    void copiesBytesTimeAndModeAndLeavesOnlyTheFile(boolean tmpfile) throws IOException {
        Entry entry = file("sub/a.bin", 700_000);
        LocalSink sink = sink(tmpfile);

        Optional<Entry> copied = sink.copyFrom(source, entry, RelativePath.of("sub/a.bin"));

        Path target = out.resolve("sub/a.bin");
        assertThat(Files.mismatch(in.resolve("sub/a.bin"), target)).isEqualTo(-1L);
        assertThat(Files.getLastModifiedTime(target).toInstant()).isEqualTo(MTIME);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(target))).isEqualTo("rw-r-----");
        // the entry is read from the written file, as a listing would show it
        assertThat(copied).contains(sink.stat(RelativePath.of("sub/a.bin")).orElseThrow());
        assertThat(names(out.resolve("sub"))).containsExactly("a.bin");
        assertThat(sink.kernelCopy().orElseThrow().usesTmpfile()).isEqualTo(tmpfile);
    }

    /** A link never replaces a file: the unnamed file gets a temporary name and is renamed over the old one. */
    @ParameterizedTest(name = "tmpfile={0}")
    @ValueSource(booleans = {true, false})
    void replacesAnExistingFile(boolean tmpfile) throws IOException {
        Entry entry = file("sub/b.txt", 5000);
        Files.writeString(out.resolve("sub/b.txt"), "old content");

        sink(tmpfile).copyFrom(source, entry, RelativePath.of("sub/b.txt"));

        assertThat(Files.mismatch(in.resolve("sub/b.txt"), out.resolve("sub/b.txt"))).isEqualTo(-1L);
        assertThat(names(out.resolve("sub"))).containsExactly("b.txt");
    }

    /**
     * Both ways of naming an unnamed file: by its descriptor ({@code AT_EMPTY_PATH}, allowed from Linux 6.10 or
     * with the capability root has) and through {@code /proc/self/fd}, for a new name and for a taken one (a
     * temporary name, then a rename). The descriptor form stays in use where the kernel allows it.
     */
    @ParameterizedTest(name = "byDescriptor={0}")
    @ValueSource(booleans = {true, false})
    void namesTheUnnamedFileEitherWay(boolean byDescriptor) throws IOException {
        Entry fresh = file("sub/f.bin", 9000);
        Entry taken = file("sub/g.bin", 7000);
        Files.writeString(out.resolve("sub/g.bin"), "old content");
        LocalSink sink = new LocalSink(out, "job-7", false, true, true, byDescriptor);

        assertThat(sink.copyFrom(source, fresh, RelativePath.of("sub/f.bin"))).isPresent();
        assertThat(sink.copyFrom(source, taken, RelativePath.of("sub/g.bin"))).isPresent();

        assertThat(Files.mismatch(in.resolve("sub/f.bin"), out.resolve("sub/f.bin"))).isEqualTo(-1L);
        assertThat(Files.mismatch(in.resolve("sub/g.bin"), out.resolve("sub/g.bin"))).isEqualTo(-1L);
        assertThat(Files.getLastModifiedTime(out.resolve("sub/f.bin")).toInstant()).isEqualTo(MTIME);
        assertThat(names(out.resolve("sub"))).containsExactly("f.bin", "g.bin");
        LocalKernelCopy copy = sink.kernelCopy().orElseThrow();
        assertThat(copy.usesTmpfile()).isTrue();
        assertThat(copy.linksByDescriptor()).isEqualTo(byDescriptor && descriptorLinksAllowed());
    }

    /** Whether this process may link a file by its descriptor: root (CAP_DAC_READ_SEARCH), or Linux 6.10 on. */
    private static boolean descriptorLinksAllowed() {
        if ("root".equals(System.getProperty("user.name"))) {
            return true;
        }
        String[] version = System.getProperty("os.version", "0.0").split("[.-]");
        int major = Integer.parseInt(version[0]);
        int minor = version.length > 1 && version[1].chars().allMatch(Character::isDigit) ? Integer.parseInt(version[1]) : 0;
        return major > 6 || major == 6 && minor >= 10;
    }

    /** A complete file that cannot be put in place (a folder has its name) leaves nothing behind, named or not. */
    @ParameterizedTest(name = "tmpfile={0}")
    @ValueSource(booleans = {true, false})
    void aFailedCommitLeavesNothingVisible(boolean tmpfile) throws IOException {
        Entry entry = file("sub/c.bin", 3000);
        Files.createDirectories(out.resolve("sub/c.bin/inner"));

        assertThatThrownBy(() -> sink(tmpfile).copyFrom(source, entry, RelativePath.of("sub/c.bin")))
                .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.ALREADY_EXISTS));

        assertThat(names(out.resolve("sub"))).containsExactly("c.bin");
        assertThat(names(out.resolve("sub/c.bin"))).containsExactly("inner");
    }

    /** The copy asks for one byte more than listed: a file that shrank or grew since is refused, and nothing is left. */
    @ParameterizedTest(name = "now {0} bytes")
    @ValueSource(ints = {1000, 3000})
    void aFileWhoseSizeChangedIsRefusedAndNothingIsLeft(int newSize) throws IOException {
        Entry entry = file("sub/e.log", 2000);
        Files.write(in.resolve("sub/e.log"), new byte[newSize]);

        for (boolean tmpfile : new boolean[] {true, false}) {
            assertThatThrownBy(() -> sink(tmpfile).copyFrom(source, entry, RelativePath.of("sub/e.log")))
                    .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.SOURCE_CHANGED));
            assertThat(names(out.resolve("sub"))).isEmpty();
        }
    }

    /** A file of several calls' worth goes by the raw path too (which alone notices the growth in its last call). */
    @ParameterizedTest(name = "tmpfile={0}")
    @ValueSource(booleans = {true, false})
    void aLargeFileIsCopiedInCallsAndAGrowthSeenInTheLast(boolean tmpfile) throws IOException {
        int size = (int) (2 * LocalKernelCopy.CHUNK + 5);
        Entry entry = file("sub/large.bin", size);
        LocalSink sink = sink(tmpfile);

        assertThat(sink.copyFrom(source, entry, RelativePath.of("sub/large.bin"))).isPresent();
        assertThat(Files.mismatch(in.resolve("sub/large.bin"), out.resolve("sub/large.bin"))).isEqualTo(-1L);

        Files.write(in.resolve("sub/large.bin"), new byte[1], StandardOpenOption.APPEND);
        assertThatThrownBy(() -> sink.copyFrom(source, entry, RelativePath.of("sub/grown.bin")))
                .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.SOURCE_CHANGED))
                .hasMessageContaining("to more bytes");
        assertThat(names(out.resolve("sub"))).containsExactly("large.bin");
    }

    /** A cancel interrupts the copying thread (SPI 1.5): the copy stops after the call under way and leaves nothing. */
    @ParameterizedTest(name = "tmpfile={0}")
    @ValueSource(booleans = {true, false})
    void anInterruptStopsALargeCopyBetweenCallsAndLeavesNothing(boolean tmpfile) throws IOException {
        Entry entry = file("sub/big.bin", (int) (3 * LocalKernelCopy.CHUNK));
        LocalSink sink = sink(tmpfile);

        Thread.currentThread().interrupt();
        try {
            assertThatThrownBy(() -> sink.copyFrom(source, entry, RelativePath.of("sub/big.bin")))
                    .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.CANCELLED))
                    .hasMessageContaining("after " + LocalKernelCopy.CHUNK + " of");
        }
        finally {
            Thread.interrupted();
        }
        assertThat(names(out.resolve("sub"))).isEmpty();
    }

    @Test
    void anEmptyFileIsCopied() throws IOException {
        Entry entry = file("sub/empty", 0);

        assertThat(sink(true).copyFrom(source, entry, RelativePath.of("sub/empty"))).isPresent();

        assertThat(Files.size(out.resolve("sub/empty"))).isZero();
        assertThat(Files.getLastModifiedTime(out.resolve("sub/empty")).toInstant()).isEqualTo(MTIME);
    }

    /**
     * Between two file systems copy_file_range refuses (EXDEV): the raw path declines, leaves nothing, and the
     * sink copies through FileChannel, whose transferTo falls back by itself.
     */
    @Test
    void anotherFileSystemFallsBackToTheJavaPath() throws IOException {
        Path shm = Path.of("/dev/shm");
        assumeTrue(Files.isDirectory(shm) && Files.isWritable(shm), "no /dev/shm");
        assumeTrue(!Files.getFileStore(shm).equals(Files.getFileStore(dir)), "/dev/shm is the temporary folder's file system");
        Path elsewhere = Files.createTempDirectory(shm, "mover-kernel-copy-test");
        try {
            Files.write(elsewhere.resolve("d.bin"), new byte[70_000]);
            Source shmSource = new LocalSourceFactory().create(EndpointUri.parse(elsewhere.toString()), PluginConfig.EMPTY, context());
            Entry entry = shmSource.stat(RelativePath.of("d.bin")).orElseThrow();
            LocalSink sink = sink(true);

            assertThat(sink.copyFrom(shmSource, entry, RelativePath.of("sub/d.bin"))).isPresent();

            assertThat(Files.mismatch(elsewhere.resolve("d.bin"), out.resolve("sub/d.bin"))).isEqualTo(-1L);
            assertThat(names(out.resolve("sub"))).containsExactly("d.bin");
            assertThat(sink.kernelCopy().orElseThrow().usable()).as("the raw path declined").isFalse();
        }
        finally {
            try (Stream<Path> files = Files.list(elsewhere)) {
                for (Path file : files.toList()) {
                    Files.delete(file);
                }
            }
            Files.delete(elsewhere);
        }
    }
}
