package io.mover.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code mover} as an operator runs it: a separate JVM, real signals, a real full disk. The disk is a
 * 2 MiB tmpfs this test mounts itself; where mounting is not permitted (an unprivileged CI runner) that
 * case is skipped, and the same failure is covered in memory by the engine tests.
 */
@Timeout(120)
class CliProcessEndToEndTest {
    @TempDir
    Path dir;

    private Process start(String... args) throws IOException {
        return CliProcesses.start(dir, args);
    }

    private String err() throws IOException {
        return Files.readString(dir.resolve("err.txt"), StandardCharsets.UTF_8);
    }

    /** Names under {@code root}; files renamed or removed by the running copy while we look are skipped, not errors. */
    private static List<String> names(Path root) throws IOException {
        List<String> names = new ArrayList<>();
        if (!Files.exists(root)) {
            return names;
        }
        Files.walkFileTree(root, new java.nio.file.SimpleFileVisitor<>() {
            @Override
            public java.nio.file.FileVisitResult visitFile(Path file, java.nio.file.attribute.BasicFileAttributes attributes) {
                names.add(file.getFileName().toString());
                return java.nio.file.FileVisitResult.CONTINUE;
            }

            @Override
            public java.nio.file.FileVisitResult preVisitDirectory(Path dir, java.nio.file.attribute.BasicFileAttributes attributes) {
                names.add(dir.getFileName().toString());
                return java.nio.file.FileVisitResult.CONTINUE;
            }

            @Override
            public java.nio.file.FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                if (e instanceof java.nio.file.NoSuchFileException) {
                    return java.nio.file.FileVisitResult.CONTINUE;
                }
                throw e;
            }
        });
        return names;
    }

    @Test
    void aFullDiskExitsWithFiveAndLeavesNoPartialFile() throws Exception {
        Path tiny = Files.createDirectories(dir.resolve("tiny"));
        Process mount = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", tiny.toString()).redirectErrorStream(true).start();
        assumeTrue(mount.waitFor(10, TimeUnit.SECONDS) && mount.exitValue() == 0, "mounting a tmpfs is not permitted here");
        try {
            Path source = Files.createDirectories(dir.resolve("src"));
            Files.writeString(source.resolve("small.txt"), "fits");
            Files.write(source.resolve("big.bin"), new byte[8 << 20]);

            Process mover = start("copy", source.toString(), tiny.resolve("dst").toString());
            assertThat(mover.waitFor(60, TimeUnit.SECONDS)).isTrue();

            assertThat(mover.exitValue()).as(err()).isEqualTo(5);
            assertThat(err()).contains("No space left").contains("free space").doesNotContain("\tat ");
            assertThat(names(tiny.resolve("dst"))).doesNotContain("big.bin").noneMatch(n -> n.startsWith(".mover."));
        }
        finally {
            new ProcessBuilder("umount", tiny.toString()).start().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void anInterruptCancelsWithExitCode130AndCleansUp() throws Exception {
        Path source = Files.createDirectories(dir.resolve("src"));
        for (int i = 0; i < 40; i++) {
            Files.write(source.resolve("f" + i + ".bin"), new byte[4 << 20]);
        }
        Path destination = dir.resolve("dst");

        // capped at 25 MB/s, about 7 s for the 160 MiB: uncapped, the kernel copies local files in a fraction of a second
        // and the copy could end before the signal (exit 0); a cap makes the bytes pass through the engine's blocks
        Process mover = start("copy", source.toString(), destination.toString(), "--concurrency", "1", "--block-size", "64KiB",
                "--cap-mbps", "200", "--progress-interval", "100ms");
        // wait until it is copying, bounded: the first status line or a first file at the destination
        for (int i = 0; i < 200 && names(destination).size() < 3 && mover.isAlive(); i++) {
            Thread.sleep(50);
        }
        assumeTrue(mover.isAlive(), "the copy finished before it could be interrupted");
        new ProcessBuilder("kill", "-INT", Long.toString(mover.pid())).start().waitFor(10, TimeUnit.SECONDS);

        assertThat(mover.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(mover.exitValue()).as(err()).isEqualTo(130);
        assertThat(names(destination)).noneMatch(n -> n.startsWith(".mover."));
        try (Stream<Path> files = Files.list(destination)) {
            files.filter(Files::isRegularFile).forEach(f -> assertThat(f.toFile().length()).as(f.toString()).isEqualTo(4 << 20));
        }
    }
}
