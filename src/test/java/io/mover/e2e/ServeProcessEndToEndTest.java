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
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code mover serve} as the README's quick start runs it: a separate JVM on loopback, a job submitted
 * over REST copies a real tree, and SIGTERM stops the server.
 */
@Timeout(180)
class ServeProcessEndToEndTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    Path dir;

    private Process start(String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow",
                "-cp", System.getProperty("java.class.path"), "io.mover.cli.Main", "serve"));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectOutput(dir.resolve("out.txt").toFile()).redirectError(dir.resolve("err.txt").toFile()).start();
    }

    private String logs() throws IOException {
        return Files.readString(dir.resolve("out.txt"), StandardCharsets.UTF_8) + Files.readString(dir.resolve("err.txt"), StandardCharsets.UTF_8);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private HttpResponse<String> get(URI uri) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Health answers UP within a minute, or the server's own output explains why not. */
    private void awaitUp(Process server, URI base) throws Exception {
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
        throw new AssertionError("the server did not come up:\n" + logs());
    }

    @Test
    void aJobSubmittedOverRestCopiesATreeAndSigtermStopsTheServer() throws Exception {
        Path source = Trees.sample(dir.resolve("src"));
        Path destination = dir.resolve("dst");
        int port = freePort();
        URI base = URI.create("http://127.0.0.1:" + port);
        Process server = start("--port", Integer.toString(port), "--data-dir", dir.resolve("data").toString());
        try {
            awaitUp(server, base);
            String body = JSON.writeValueAsString(java.util.Map.of("kind", "copy", "source", source.toString(), "destination", destination.toString()));
            HttpResponse<String> created = http.send(HttpRequest.newBuilder(base.resolve("/api/v1/jobs"))
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            URI job = base.resolve(created.headers().firstValue("Location").orElseThrow());

            JsonNode view = JSON.readTree(get(job).body());
            for (int i = 0; i < 600 && !terminal(view.get("state").asString()); i++) {
                Thread.sleep(100);
                view = JSON.readTree(get(job).body());
            }
            assertThat(view.get("state").asString()).as(view.toString()).isEqualTo("SUCCEEDED");
            assertThat(view.get("result").get("filesTransferred").asLong()).isEqualTo(56);
            assertThat(Trees.fingerprint(destination)).isEqualTo(Trees.fingerprint(source));

            new ProcessBuilder("kill", "-TERM", Long.toString(server.pid())).start().waitFor(10, TimeUnit.SECONDS);
            assertThat(server.waitFor(60, TimeUnit.SECONDS)).as(logs()).isTrue();
            assertThat(logs()).contains("mover: serving http://127.0.0.1:" + port + "/api/v1").doesNotContain("ERROR");
        }
        finally {
            server.destroyForcibly();
        }
    }

    @Test
    void offLoopbackWithoutTokensItRefusesToStartInOneLine() throws Exception {
        Process server = start("--address", "0.0.0.0", "--port", Integer.toString(freePort()), "--data-dir", dir.resolve("data").toString());
        assertThat(server.waitFor(60, TimeUnit.SECONDS)).isTrue();

        assertThat(server.exitValue()).as(logs()).isEqualTo(1);
        String lastLine = logs().strip().lines().reduce((first, second) -> second).orElse("");
        assertThat(lastLine).startsWith("mover: the server did not start: refusing to start").contains("mover.tokens[0].token");
    }

    private static boolean terminal(String state) {
        return List.of("SUCCEEDED", "COMPLETED_WITH_ERRORS", "FAILED", "CANCELLED").contains(state);
    }
}
