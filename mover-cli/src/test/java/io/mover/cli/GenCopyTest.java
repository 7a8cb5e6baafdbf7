package io.mover.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code gen://} is installed in the CLI and usable as the source of any copy. */
@Timeout(60)
class GenCopyTest {
    @TempDir
    Path temp;

    @Test
    void copiesAGeneratedTreeTheSameEveryTime() throws IOException {
        String uri = "gen://?files=20&size=10KiB&fanout=5&data=text&seed=4";
        CliRun first = CliRun.of("copy", uri, temp.resolve("a").toString());
        CliRun second = CliRun.of("copy", uri, temp.resolve("b").toString());

        assertThat(first.exitCode()).as(first.err()).isZero();
        assertThat(second.exitCode()).as(second.err()).isZero();
        assertThat(first.out()).contains("20 scanned, 20 transferred");
        List<Path> files = files(temp.resolve("a"));
        assertThat(files).hasSize(20).contains(Path.of("d3/f19.bin"));
        for (Path file : files) {
            assertThat(Files.size(temp.resolve("a").resolve(file))).isEqualTo(10240);
            assertThat(Files.readAllBytes(temp.resolve("b").resolve(file))).isEqualTo(Files.readAllBytes(temp.resolve("a").resolve(file)));
        }
    }

    @Test
    void aBadParameterIsOneLine() {
        CliRun run = CliRun.of("copy", "gen://?files=1&data=noise", temp.resolve("x").toString());

        assertThat(run.exitCode()).isNotZero();
        assertThat(run.errLines()).hasSize(1);
        assertThat(run.err()).contains("data", "one of zeros, random, text, mixed");
        assertThat(temp.resolve("x")).doesNotExist();
    }

    private static List<Path> files(Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(Files::isRegularFile).map(root::relativize).sorted().toList();
        }
    }
}
