package io.mover.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code mover bench --server URL}: the bench runs as a job of a real server and prints as a local one does. */
@Timeout(120)
class RemoteBenchTest {
    private static TestServer server;

    @TempDir
    static Path serverData;

    @TempDir
    Path temp;

    @BeforeAll
    static void startServer() {
        server = TestServer.start(serverData);
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @Test
    void aBenchOnTheServerPrintsItsReport() throws IOException {
        Path target = Files.createDirectories(temp.resolve("target"));
        CliRun run = CliRun.of("bench", "--server", server.url(), "--files", "8", "--size", "8KiB", "--concurrency", "1,2", target.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.err()).contains("mover: bench ", " submitted to ");
        assertThat(run.out()).contains("mover bench (transfer) on " + target, "Recommended: --concurrency ");
        try (Stream<Path> left = Files.list(target)) {
            assertThat(left).isEmpty();
        }
    }

    @Test
    void aFailedBenchOnTheServerIsItsErrorAndCode() throws IOException {
        Path target = Files.createDirectories(temp.resolve("target"));
        Files.createDirectories(target.resolve("mover-bench"));
        CliRun run = CliRun.of("bench", "--server", server.url(), "--files", "1", target.toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.errLines()).last().asString().startsWith("mover: the bench folder mover-bench already exists");
    }
}
