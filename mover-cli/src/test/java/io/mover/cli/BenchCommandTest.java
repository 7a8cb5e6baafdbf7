package io.mover.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code mover bench} in-process: the reports on stdout, the phases on stderr, errors as one line and an exit code. */
@Timeout(120)
class BenchCommandTest {
    @TempDir
    Path temp;

    @Test
    void transferModePrintsTheTableTheBottleneckAndTheRecommendation() throws IOException {
        Path target = Files.createDirectories(temp.resolve("target"));
        Path html = temp.resolve("report.html");
        CliRun run = CliRun.of("bench", "--files", "20", "--size", "32KiB", "--concurrency", "1,2", "--html", html.toString(), target.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("mover bench (transfer) on " + target, "concurrency", "files/s", "Latency per operation",
                "file-write", "Bottleneck:", "Recommended: --concurrency ");
        assertThat(run.err()).contains("mover: concurrency 1: writing 20 files", "HTML report written to");
        assertThat(Files.readString(html)).contains("<svg", "Concurrency sweep");
        try (Stream<Path> left = Files.list(target)) {
            assertThat(left).isEmpty();
        }
    }

    @Test
    void ioModeAsJson() throws IOException {
        Path target = Files.createDirectories(temp.resolve("target"));
        CliRun run = CliRun.of("bench", "--mode", "io", "--io-size", "4MiB", "--queue-depths", "1,2", "--runtime", "30ms",
                "--write-block-sizes", "64KiB", "--output", "json", target.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        JsonNode json = JsonOutput.MAPPER.readTree(run.out());
        assertThat(json.get("mode").asString()).isEqualTo("io");
        assertThat(json.get("io").size()).isEqualTo(8);
        assertThat(json.get("blockSizes").size()).isEqualTo(1);
        assertThat(json.get("io").get(0).get("latency").get("p99Micros").asDouble()).isPositive();
    }

    @Test
    void aForeignBenchFolderIsRefusedWithOneLine() throws IOException {
        Path target = Files.createDirectories(temp.resolve("target"));
        Files.createDirectories(target.resolve("mover-bench"));
        CliRun run = CliRun.of("bench", "--files", "2", target.toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.errLines()).singleElement().asString().startsWith("mover: the bench folder mover-bench already exists");
    }

    @Test
    void aBadModeNamesTheOption() {
        CliRun run = CliRun.of("bench", "--mode", "fast", temp.toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("--mode", "use transfer or io");
    }
}
