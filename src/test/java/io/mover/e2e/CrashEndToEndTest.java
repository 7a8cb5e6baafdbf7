package io.mover.e2e;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The durable job service's promise, end to end: a server killed with SIGKILL in the middle of a copy
 * leaves the job in its data directory; a new server on the same directory continues it to SUCCEEDED,
 * the destination byte-identical, no temporaries left, each file recorded once. A second server on the
 * directory in use is refused in one line.
 */
@Timeout(240)
class CrashEndToEndTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final int FILES = 300;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    Path dir;

    private Process start(String name, int port) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow",
                "-cp", System.getProperty("java.class.path"), "io.mover.cli.Main", "serve",
                "--port", Integer.toString(port), "--data-dir", dir.resolve("data").toString()));
        return new ProcessBuilder(command).redirectOutput(dir.resolve(name + ".out").toFile()).redirectError(dir.resolve(name + ".err").toFile())
                .start();
    }

    private String logs(String name) throws IOException {
        return Files.readString(dir.resolve(name + ".out"), StandardCharsets.UTF_8) + Files.readString(dir.resolve(name + ".err"), StandardCharsets.UTF_8);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private HttpResponse<String> get(URI uri) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private void awaitUp(Process server, URI base, String name) throws Exception {
        for (int i = 0; i < 600 && server.isAlive(); i++) {
            try {
                if (get(base.resolve("/actuator/health")).statusCode() == 200) {
                    return;
                }
            }
            catch (IOException notYetListening) {
                // the port opens only once the context has started
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the server did not come up:\n" + logs(name));
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
        return JSON.readTree(get(URI.create(job + "/files?limit=500")).body());
    }

    @Test
    void aKilledServersJobContinuesOnTheNextServerAndEndsWithEachFileOnce() throws Exception {
        Path source = tree(dir.resolve("src"));
        Path destination = dir.resolve("dst");
        int port = freePort();
        URI base = URI.create("http://127.0.0.1:" + port);
        Process first = start("first", port);
        URI job;
        int before;
        try {
            awaitUp(first, base, "first");
            // about 10 MB at 16 Mbit/s, one file at a time: several seconds, time to kill it in the middle
            String body = JSON.writeValueAsString(Map.of("kind", "copy", "source", source.toString(), "destination", destination.toString(),
                    "options", Map.of("concurrency", 1, "bandwidthCapMbps", 16)));
            HttpResponse<String> created = http.send(HttpRequest.newBuilder(base.resolve("/api/v1/jobs"))
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                    HttpResponse.BodyHandlers.ofString());
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
            first.destroyForcibly(); // SIGKILL: no shutdown hook, no graceful stop
        }
        assertThat(first.waitFor(30, TimeUnit.SECONDS)).isTrue();

        Process second = start("second", port);
        try {
            awaitUp(second, base, "second");
            JsonNode view = JSON.readTree(get(job).body());
            for (int i = 0; i < 1200 && !terminal(view.get("state").asString()); i++) {
                Thread.sleep(100);
                view = JSON.readTree(get(job).body());
            }
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

            // the data directory is in use: a second server is refused in one line
            Process third = start("third", freePort());
            assertThat(third.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(third.exitValue()).as(logs("third")).isEqualTo(1);
            String lastLine = logs("third").strip().lines().reduce((a, b) -> b).orElse("");
            assertThat(lastLine).startsWith("mover: the server did not start: ").contains("is in use by another mover (pid " + second.pid() + ")");
        }
        finally {
            second.destroyForcibly();
            second.waitFor(30, TimeUnit.SECONDS);
        }
    }

    private static boolean terminal(String state) {
        return List.of("SUCCEEDED", "COMPLETED_WITH_ERRORS", "FAILED", "CANCELLED").contains(state);
    }
}
