package io.mover.plugins.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
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
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The raw-descriptor copy stays beneath the sink's root ({@link BeneathRoot}): a folder the sink has checked (and
 * remembers as inside) that is then swapped for a link to elsewhere receives nothing, on either naming path.
 */
final class LocalKernelCopyConfinementTest {
    private static final Instant MTIME = Instant.parse("2020-02-03T04:05:06Z");

    @TempDir
    private Path dir;
    private Path in;
    private Path out;
    private Path outside;
    private Source source;

    @BeforeEach
    void setUp() throws IOException {
        assumeTrue(LinuxCalls.INSTANCE.isPresent(), "Linux only");
        in = Files.createDirectories(dir.resolve("in"));
        out = Files.createDirectories(dir.resolve("out/sub"));
        out = out.getParent();
        outside = Files.createDirectories(dir.resolve("outside"));
        source = new LocalSourceFactory().create(EndpointUri.parse(in.toString()), PluginConfig.EMPTY,
                new PluginContext("job-7", dir, Clock.systemUTC(), System.getLogger("test")));
    }

    private Entry file(String name) throws IOException {
        LocalServerSideCopyTest.write(in, name, 5_000, MTIME, "rw-r-----");
        return source.stat(RelativePath.of(name)).orElseThrow();
    }

    @ParameterizedTest(name = "tmpfile={0}, absolute link={1}")
    @CsvSource({"true,true", "true,false", "false,true", "false,false"})
    void aFolderSwappedForALinkOutAfterItWasCheckedReceivesNothing(boolean tmpfile, boolean absolute) throws IOException {
        try (LocalSink sink = new LocalSink(out, "job-7", false, true, tmpfile)) {
            assumeTrue(sink.kernelCopy().isPresent(), "no raw-descriptor copy here");
            assertThat(sink.copyFrom(source, file("sub/a.bin"), RelativePath.of("sub/a.bin"))).isPresent();
            // checked and remembered as inside; now swapped for a link that leads out
            Files.move(out.resolve("sub"), dir.resolve("moved"));
            Files.createSymbolicLink(out.resolve("sub"), absolute ? outside : Path.of("../outside"));
            Entry second = file("sub/b.bin");

            assertThatThrownBy(() -> sink.copyFrom(source, second, RelativePath.of("sub/b.bin")))
                    .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_PATH))
                    .hasMessageContaining("symbolic link");
            assertThat(sink.kernelCopy().orElseThrow().usable()).isTrue();
        }
        assertThat(names(outside)).as("nothing written outside the destination").isEmpty();
        assertThat(names(dir.resolve("moved"))).containsExactly("a.bin");
    }

    @Test
    void aLinkToAFolderInsideTheRootIsStillPassedThrough() throws IOException {
        Files.createDirectories(out.resolve("real"));
        Files.createSymbolicLink(out.resolve("alias"), out.resolve("real"));
        Files.createSymbolicLink(out.resolve("relative"), Path.of("real"));
        try (LocalSink sink = new LocalSink(out, "job-7", false, true, true)) {
            assertThat(sink.copyFrom(source, file("x.bin"), RelativePath.of("alias/x.bin"))).isPresent();
            assertThat(sink.copyFrom(source, file("y.bin"), RelativePath.of("relative/y.bin"))).isPresent();
            assertThat(sink.copyFrom(source, file("z.bin"), RelativePath.of("z.bin"))).isPresent();
        }
        assertThat(names(out.resolve("real"))).containsExactly("x.bin", "y.bin");
        assertThat(Files.mismatch(in.resolve("x.bin"), out.resolve("real/x.bin"))).isEqualTo(-1L);
        assertThat(Files.getLastModifiedTime(out.resolve("z.bin")).toInstant()).isEqualTo(MTIME);
    }

    /**
     * A folder reached through an absolute link (inside the root) whose real name has no exact form in the JDK's
     * encoding (the byte 0xFF in UTF-8): refused as such a name is anywhere, never a NullPointerException out of the copy.
     */
    @Test
    void aLinkToAFolderWhoseRealNameCannotBeEncodedIsRefusedCleanly() throws IOException, InterruptedException {
        assumeTrue("UTF-8".equals(System.getProperty("sun.jnu.encoding")), "a name UTF-8 cannot decode");
        // the shell makes the raw byte: no Java string names it
        Process shell = new ProcessBuilder("sh", "-c", "mkdir \"$1/$(printf '\\377')\" && ln -s \"$1/$(printf '\\377')\" \"$1/alias\"", "sh", out.toString())
                .inheritIO().start();
        assertThat(shell.waitFor()).isZero();
        try (LocalSink sink = new LocalSink(out, "job-7", false, true, true)) {
            assumeTrue(sink.kernelCopy().isPresent(), "no raw-descriptor copy here");
            Entry entry = file("x.bin");

            assertThatThrownBy(() -> sink.kernelCopy().orElseThrow().copy(in.resolve("x.bin"), out.resolve("alias/x.bin"), RelativePath.of("alias/x.bin"), entry))
                    .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_PATH));
        }
    }

    private static String[] names(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            return files.map(f -> f.getFileName().toString()).sorted().toArray(String[]::new);
        }
    }
}
