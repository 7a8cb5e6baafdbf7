package io.mover.e2e;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import io.mover.jobstore.TestPostgres;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The durable job service's promise, end to end: a server killed with SIGKILL in the middle of a copy
 * leaves the job in its data directory; a new server on the same directory continues it to SUCCEEDED,
 * the destination byte-identical, no temporaries left, each file recorded once; on the embedded H2 store
 * and on PostgreSQL (where the dead node's units are revived by db-scheduler's dead-execution detection,
 * not released at start). A second server on the directory in use is refused in one line.
 */
@Timeout(240)
class CrashEndToEndTest {
    private static final int FILES = 300;

    @TempDir
    Path dir;

    private ServerProcess start(String name, int port, String... more) throws IOException {
        List<String> args = new ArrayList<>(List.of("--port", Integer.toString(port), "--data-dir", dir.resolve("data").toString()));
        args.addAll(List.of(more));
        return ServerProcess.start(dir, name, args.toArray(String[]::new));
    }

    private Path tree(Path root) throws IOException {
        Random random = new Random(11);
        for (int i = 0; i < FILES; i++) {
            byte[] data = new byte[16 * 1024 + random.nextInt(32 * 1024)];
            random.nextBytes(data);
            Path file = root.resolve("d" + (i % 5)).resolve("f" + i + ".bin");
            Files.createDirectories(file.getParent());
            Files.write(file, data);
        }
        Files.createDirectories(root.resolve("empty"));
        return root;
    }

    private JsonNode files(URI job) throws Exception {
        return ServerProcess.JSON.readTree(ServerProcess.get(URI.create(job + "/files?limit=500")).body());
    }

    @Test
    void onTheEmbeddedStoreAKilledServersJobContinuesOnTheNextServerAndEndsWithEachFileOnce() throws Exception {
        int port = ServerProcess.freePort();
        ServerProcess second = killAndContinue(port);
        try {
            assertThat(dir.resolve("data/mover.mv.db")).exists();
            // the data directory is in use: a second server is refused in one line
            ServerProcess third = start("third", ServerProcess.freePort());
            assertThat(third.process().waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(third.process().exitValue()).as(third.logs()).isEqualTo(1);
            assertThat(third.lastLine()).startsWith("mover: the server did not start: ").contains("is in use by another mover (pid " + second.process().pid() + ")");
        }
        finally {
            stop(second);
        }
    }

    @Test
    void onPostgresqlAKilledNodesUnitsAreRevivedByTheNextAndTheJobEndsWithEachFileOnce() throws Exception {
        Path config = dir.resolve("postgres.properties");
        // a 1 s heartbeat: db-scheduler declares the killed node's executions dead after 6 missed ones
        Files.writeString(config, "mover.job-store.url=" + TestPostgres.get().newDatabase() + "\nmover.job-store.user=postgres\n"
                + "mover.job-store.password=\nmover.job-store.heartbeat-interval=1s\n");
        stop(killAndContinue(ServerProcess.freePort(), "--config", config.toString()));
        assertThat(dir.resolve("data/mover.mv.db")).as("the jobs were kept in PostgreSQL, not in H2").doesNotExist();
    }

    private static void stop(ServerProcess server) throws InterruptedException {
        server.process().destroyForcibly();
        server.process().waitFor(30, TimeUnit.SECONDS);
    }

    /** Copies a tree on a first server, SIGKILLs it mid-copy, and returns the second server that finished the job. */
    private ServerProcess killAndContinue(int port, String... storeArgs) throws Exception {
        Path source = tree(dir.resolve("src"));
        Path destination = dir.resolve("dst");
        URI base = URI.create("http://127.0.0.1:" + port);
        ServerProcess first = start("first", port, storeArgs);
        URI job;
        int before;
        try {
            first.awaitUp(base);
            // about 10 MB at 16 Mbit/s, one file at a time: several seconds, time to kill it in the middle
            HttpResponse<String> created = ServerProcess.post(base.resolve("/api/v1/jobs"), Map.of("kind", "copy", "source", source.toString(),
                    "destination", destination.toString(), "options", Map.of("concurrency", 1, "bandwidthCapMbps", 16)));
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            job = base.resolve(created.headers().firstValue("Location").orElseThrow());
            before = 0;
            for (int i = 0; i < 600 && before < 20; i++) {
                Thread.sleep(100);
                before = files(job).get("items").size();
            }
            assertThat(before).as("files recorded before the kill").isBetween(20, FILES - 1);
        }
        finally {
            first.process().destroyForcibly(); // SIGKILL: no shutdown hook, no graceful stop
        }
        assertThat(first.process().waitFor(30, TimeUnit.SECONDS)).isTrue();

        ServerProcess second = start("second", port, storeArgs);
        boolean finished = false;
        try {
            second.awaitUp(base);
            JsonNode view = ServerProcess.awaitEnd(job, 1200);
            assertThat(view.get("state").asString()).as(view.toString()).isEqualTo("SUCCEEDED");
            assertThat(view.get("result").get("filesTransferred").asLong()).isEqualTo(FILES);
            assertThat(view.get("result").get("filesScanned").asLong()).isEqualTo(FILES);
            assertThat(view.get("result").get("filesFailed").asLong()).isZero();
            // byte-identical, and nothing else there: a temporary left by the killed write would show up here
            assertThat(Trees.fingerprint(destination)).isEqualTo(Trees.fingerprint(source));

            JsonNode page = files(job);
            Set<String> paths = new HashSet<>();
            for (JsonNode file : page.get("items")) {
                assertThat(paths.add(file.get("path").asString())).as("recorded once: " + file).isTrue();
                assertThat(file.get("outcome").asString()).isEqualTo("transferred");
            }
            assertThat(paths).hasSize(FILES);
            assertThat(page.get("hasMore").asBoolean()).isFalse();
            finished = true;
            return second;
        }
        finally {
            if (!finished) {
                stop(second);
            }
        }
    }
}
