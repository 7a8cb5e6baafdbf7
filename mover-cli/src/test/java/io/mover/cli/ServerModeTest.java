package io.mover.cli;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code mover copy --server}, {@code mover bench --server} and {@code mover jobs ...} against a real server in this JVM, on loopback. */
@Timeout(120)
class ServerModeTest {
    @RegisterExtension
    static final ServerPerClass server = new ServerPerClass();

    @TempDir
    Path temp;


    @Test
    void copyThroughTheServerCopiesTheTreeAndPrintsTheSummary() throws IOException {
        Path source = Trees.sample(temp.resolve("src"));
        Path destination = temp.resolve("dst");

        CliRun run = CliRun.of("copy", "--server", server.url(), "--block-size", "256k", source.toString(), destination.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(Trees.describe(destination)).isEqualTo(Trees.describe(source));
        assertThat(run.out()).contains("Job succeeded", "Files:       5 scanned, 5 transferred, 0 skipped, 0 failed", "Bottleneck:",
                "Stages:", "WRITE");
        assertThat(run.errLines()).singleElement().asString().matches("mover: job [0-9a-f-]{36} submitted to " + server.url());
    }

    @Test
    void jsonOutputEndsWithTheSummary() throws IOException {
        Path source = Trees.sample(temp.resolve("src"));

        CliRun run = CliRun.of("copy", "--server", server.url(), "--output", "json", source.toString(), temp.resolve("dst").toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        List<JsonNode> lines = run.outLines().stream().map(line -> JsonOutput.MAPPER.readTree(line)).toList();
        assertThat(lines).allSatisfy(line -> assertThat(line.get("type").asString()).isIn("progress", "summary"));
        JsonNode summary = lines.getLast();
        assertThat(summary.get("type").asString()).isEqualTo("summary");
        assertThat(summary.get("state").asString()).isEqualTo("SUCCEEDED");
        assertThat(summary.get("exitCode").asInt()).isZero();
        assertThat(summary.get("filesTransferred").asLong()).isEqualTo(5);
    }

    @Test
    void theEnvironmentNamesTheServer() throws IOException {
        Path source = Trees.sample(temp.resolve("src"));

        CliRun run = CliRun.withEnvironment(Map.of("MOVER_SERVER", server.url()), "copy", source.toString(), temp.resolve("dst").toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.err()).contains("submitted to " + server.url());
    }

    @Test
    void anEmptyServerOptionRunsTheCopyHereDespiteTheEnvironment() throws IOException {
        Path source = Trees.sample(temp.resolve("src"));

        CliRun run = CliRun.withEnvironment(Map.of("MOVER_SERVER", "http://127.0.0.1:1"), "copy", "--server", "", source.toString(),
                temp.resolve("dst").toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.err()).isEmpty();
        assertThat(Trees.describe(temp.resolve("dst"))).isEqualTo(Trees.describe(source));
    }

    @Test
    void aRefusedRequestIsTheProblemsDetailOnOneLine() {
        CliRun run = CliRun.of("copy", "--server", server.url(), "nosuch://bucket/x", temp.resolve("dst").toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.out()).isEmpty();
        // the installed schemes grow with the plugins on the class path (file, gen, ...)
        assertThat(run.errLines()).singleElement().asString()
                .startsWith("mover: no installed plugin can read from 'nosuch://' locations; installed schemes: ")
                .containsPattern("installed schemes: [a-z, ]*\\bfile\\b")
                .endsWith(" (see 'mover plugins', or add the plugin's jars under plugins/<name>/)");
    }

    @Test
    void aMissingSourceExitsWithThreeAsStandalone() {
        CliRun run = CliRun.of("copy", "--server", server.url(), temp.resolve("absent").toString(), temp.resolve("dst").toString());

        assertThat(run.exitCode()).as(run.err()).isEqualTo(3);
        assertThat(run.errLines()).singleElement().asString().startsWith("mover: ").contains("absent");
    }

    @Test
    void anUnreachableServerIsExitSeven() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        String url = "http://127.0.0.1:" + port;

        CliRun copy = CliRun.of("copy", "--server", url, temp.toString(), temp.resolve("dst").toString());
        CliRun list = CliRun.of("jobs", "list", "--server", url);

        assertThat(copy.exitCode()).isEqualTo(7);
        assertThat(copy.errLines()).containsExactly("mover: cannot reach the mover server at " + url
                + ": connection refused; start it with mover serve or check --server");
        assertThat(list.exitCode()).isEqualTo(7);
        assertThat(list.errLines()).isEqualTo(copy.errLines());
    }

    @Test
    void jobsListShowWatchAndCancelRefusedForAnEndedJob() throws IOException {
        Path source = Trees.sample(temp.resolve("src"));
        CliRun copy = CliRun.of("copy", "--server", server.url(), "--verify", source.toString(), temp.resolve("dst").toString());
        assertThat(copy.exitCode()).as(copy.err()).isZero();
        String id = copy.err().replaceAll("(?s).*mover: job ([0-9a-f-]{36}) submitted.*", "$1");

        CliRun list = CliRun.of("jobs", "list", "--server", server.url());
        assertThat(list.exitCode()).as(list.err()).isZero();
        assertThat(list.outLines().getFirst()).startsWith("ID").contains("STATE", "CREATED", "PROGRESS", "THROUGHPUT", "SOURCE → DESTINATION");
        assertThat(list.out()).containsPattern(id + "\\s+SUCCEEDED\\s+\\S+Z\\s+100\\.0 %\\s+.+/s\\s+" + source + " → " + temp.resolve("dst"));

        JsonNode page = JsonOutput.MAPPER.readTree(CliRun.of("jobs", "list", "--server", server.url(), "--output", "json", "--limit", "500").out());
        assertThat(page.get("items").valueStream().map(job -> job.get("id").asString())).contains(id);
        assertThat(CliRun.of("jobs", "list", "--server", server.url(), "--state", "succeeded").out()).contains(id);
        assertThat(CliRun.of("jobs", "list", "--server", server.url(), "--state", "cancelled").out()).doesNotContain(id);

        CliRun show = CliRun.of("jobs", "show", id, "--server", server.url());
        assertThat(show.exitCode()).as(show.err()).isZero();
        assertThat(show.out()).contains("Job:         " + id + " SUCCEEDED", "Source:      " + source, "Options:     concurrency not set",
                ", verify", "Job succeeded", "Files:       5 scanned, 5 transferred", "Stages:", "Bottleneck:",
                "Concurrency: 16 (default)"); // not set, and the local destination suggests nothing

        CliRun watch = CliRun.of("jobs", "watch", id, "--server", server.url());
        assertThat(watch.exitCode()).as(watch.err()).isZero();
        assertThat(watch.out()).contains("Job succeeded", "Files:       5 scanned, 5 transferred");

        // the server answers 409 for a job that has ended: one line, the usage exit code, nothing on stdout
        CliRun cancel = CliRun.of("jobs", "cancel", id, "--server", server.url());
        assertThat(cancel.exitCode()).isEqualTo(1);
        assertThat(cancel.out()).isEmpty();
        assertThat(cancel.errLines()).singleElement().asString().contains(id).contains("has ended (SUCCEEDED)");
    }

    @Test
    void everyCopyOptionReachesTheServer() throws IOException {
        Path source = Trees.sample(temp.resolve("src"));
        Path destination = temp.resolve("dst");

        CliRun run = CliRun.of("copy", "--server", server.url(), "--concurrency", "3", "--block-size", "64k", "--include", "*.txt",
                "--exclude", "c", "--overwrite", "if-source-newer", "--follow-symlinks", "--codec", "lz4", "--retries", "5", "--verify",
                source.toString(), destination.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(Files.exists(destination.resolve("top.txt"))).isTrue();
        assertThat(Files.exists(destination.resolve("a/b/big.bin"))).isFalse();
        assertThat(Files.exists(destination.resolve("a/b/c/deep.txt"))).isFalse();
        String id = run.err().replaceAll("(?s).*mover: job ([0-9a-f-]{36}) submitted.*", "$1");
        assertThat(CliRun.of("jobs", "show", id, "--server", server.url()).out()).contains(
                "Options:     concurrency 3, block size 64.0 KiB, overwrite if-source-newer, symlinks follow, codec lz4, retries 5, include *.txt, exclude c, verify");
    }

    @Test
    void aDryRunOnTheServerChangesNothing() throws IOException {
        Path source = Trees.sample(temp.resolve("src"));

        CliRun run = CliRun.of("copy", "--server", server.url(), "--dry-run", source.toString(), temp.resolve("dst").toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("Dry run succeeded: nothing was changed; 5 files");
        assertThat(Files.exists(temp.resolve("dst"))).isFalse();
    }

    @Test
    void anInvalidServerUrlIsAUsageError() {
        CliRun run = CliRun.of("jobs", "list", "--server", "localhost:8080");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.errLines()).containsExactly("mover: invalid server URL 'localhost:8080': use http://HOST:PORT, such as http://127.0.0.1:8080");
    }

    @Test
    void anUnknownJobIsExitThree() {
        CliRun show = CliRun.of("jobs", "show", "00000000-0000-0000-0000-000000000000", "--server", server.url());
        CliRun watch = CliRun.of("jobs", "watch", "nope", "--server", server.url());

        assertThat(show.exitCode()).isEqualTo(3);
        assertThat(show.errLines()).containsExactly("mover: no job '00000000-0000-0000-0000-000000000000'; GET /api/v1/jobs lists the jobs this server knows");
        assertThat(watch.exitCode()).isEqualTo(3);
    }

    @Test
    void cancellingARunningJobEndsItsCopyWithExit130() throws Exception {
        // zstd at its top level moves a few MiB/s: the job is still running when the cancel arrives
        Path source = Files.createDirectories(temp.resolve("slow"));
        byte[] data = new byte[48 << 20];
        new Random(1).nextBytes(data);
        Files.write(source.resolve("slow.bin"), data);
        ExecutorService executor = Executors.newSingleThreadExecutor();
        try {
            Future<CliRun> copy = executor.submit(() -> CliRun.of("copy", "--server", server.url(), "--codec", "zstd:19", "--concurrency", "1",
                    source.toString(), temp.resolve("dst").toString()));
            String id = awaitRunningJob();

            CliRun cancel = CliRun.of("jobs", "cancel", id, "--server", server.url());
            assertThat(cancel.exitCode()).as(cancel.err()).isZero();
            assertThat(cancel.out()).startsWith("job " + id + ": ");

            CliRun copied = copy.get(60, TimeUnit.SECONDS);
            assertThat(copied.exitCode()).as(copied.out() + copied.err()).isEqualTo(130);
            assertThat(copied.out()).contains("Job cancelled");
            CliRun watch = CliRun.of("jobs", "watch", id, "--server", server.url(), "--output", "json");
            assertThat(watch.exitCode()).isEqualTo(130);
            assertThat(watch.outLines().getLast()).contains("\"state\":\"CANCELLED\"", "\"exitCode\":130");
        }
        finally {
            executor.shutdownNow();
        }
    }

    private static String awaitRunningJob() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            JsonNode page = JsonOutput.MAPPER.readTree(CliRun.of("jobs", "list", "--server", server.url(), "--state", "running", "--output", "json").out());
            if (!page.get("items").isEmpty()) {
                return page.get("items").get(0).get("id").asString();
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no job started running within 30 s");
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

    // mover bench --server: the bench runs as a job of the server and prints as a local one does
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
        // the bench is a job of the server: listed with the jobs, by kind
        String id = run.err().replaceAll("(?s).*mover: bench ([0-9a-f-]{36}) submitted.*", "$1");
        assertThat(CliRun.of("jobs", "list", "--server", server.url(), "--kind", "bench").out()).contains(id);
        assertThat(CliRun.of("jobs", "list", "--server", server.url(), "--kind", "copy").out()).doesNotContain(id);
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
