package io.mover.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code mover sync --server URL}: the sync runs as a job of kind sync on the server's durable job service. */
@Timeout(120)
class ServerSyncTest {
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
        if (server != null) {
            server.close();
        }
    }

    @Test
    void syncsOnTheServerWithDeletesAndShowsTheSyncSummary() throws IOException {
        Path source = Trees.sample(temp.resolve("src"));
        Path destination = temp.resolve("dst");
        Files.createDirectories(destination.resolve("old"));
        Files.writeString(destination.resolve("old/stale.txt"), "stale");

        CliRun first = CliRun.of("sync", "--server", server.url(), "--delete-destination", "true", source.toString(), destination.toString());

        assertThat(first.exitCode()).as(first.err()).isZero();
        assertThat(Trees.describe(destination)).isEqualTo(Trees.describe(source));
        assertThat(first.out()).contains("Sync succeeded", "Scanned:     5 files at the source, 1 at the destination", "Copies:      5 files",
                "Deletions:   1 of 1 planned");

        CliRun again = CliRun.of("sync", "--server", server.url(), "--output", "json", source.toString(), destination.toString());
        assertThat(again.exitCode()).as(again.err()).isZero();
        assertThat(again.outLines().getLast()).contains("\"unchanged\":5", "\"copyTransfers\":0", "\"filesTransferred\":0");

        Files.delete(source.resolve("top.txt"));
        CliRun guarded = CliRun.of("sync", "--server", server.url(), "--delete-destination", "true", "--max-delete", "0",
                source.toString(), destination.toString());
        assertThat(guarded.exitCode()).isEqualTo(1);
        assertThat(guarded.err()).contains("--max-delete 0");
        assertThat(destination.resolve("top.txt")).exists();

        CliRun prompt = CliRun.of("sync", "--server", server.url(), "--delete-destination", "prompt", source.toString(), destination.toString());
        assertThat(prompt.exitCode()).isEqualTo(1);
        assertThat(prompt.err()).contains("prompt needs this terminal");
    }
}
