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
import java.util.Map;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code mover serve} in its own JVM, as an operator runs it, on loopback; its output is kept in
 * {@code <dir>/<name>.out|.err} so a failing assertion can show it. The HTTP helpers wait boundedly.
 */
final class ServerProcess {
    static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final List<String> TERMINAL = List.of("SUCCEEDED", "COMPLETED_WITH_ERRORS", "FAILED", "CANCELLED");

    private final Process process;
    private final Path out;
    private final Path err;

    private ServerProcess(Process process, Path out, Path err) {
        this.process = process;
        this.out = out;
        this.err = err;
    }

    /** Starts {@code mover serve ARGS}; {@code name} tells the logs of several servers of one test apart. */
    static ServerProcess start(Path dir, String name, String... args) throws IOException {
        return start(dir, name, Map.of(), args);
    }

    /** Starts {@code mover serve ARGS} with {@code environment} added to this process's (credentials, as an operator sets them). */
    static ServerProcess start(Path dir, String name, Map<String, String> environment, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow",
                "-cp", System.getProperty("java.class.path"), "io.mover.cli.Main", "serve"));
        command.addAll(List.of(args));
        Path out = dir.resolve(name + ".out");
        Path err = dir.resolve(name + ".err");
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.environment().putAll(environment);
        return new ServerProcess(builder.start(), out, err);
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    Process process() {
        return process;
    }

    String logs() throws IOException {
        return Files.readString(out, StandardCharsets.UTF_8) + Files.readString(err, StandardCharsets.UTF_8);
    }

    String lastLine() throws IOException {
        return logs().strip().lines().reduce((first, second) -> second).orElse("");
    }

    /** Health answers within a minute, or the server's own output explains why not. */
    void awaitUp(URI base) throws Exception {
        for (int i = 0; i < 600 && process.isAlive(); i++) {
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

    static HttpResponse<String> get(URI uri) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    static HttpResponse<String> post(URI uri, Map<String, ?> json) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(json))).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Polls the job every 100 ms, at most {@code tries} times, until it has ended; returns its last view. */
    static JsonNode awaitEnd(URI job, int tries) throws IOException, InterruptedException {
        JsonNode view = JSON.readTree(get(job).body());
        for (int i = 0; i < tries && !TERMINAL.contains(view.get("state").asString()); i++) {
            Thread.sleep(100);
            view = JSON.readTree(get(job).body());
        }
        return view;
    }
}
