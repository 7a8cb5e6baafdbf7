package io.mover.server;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.mover.server.job.web.JobResponse;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A server job to a plain tar destination ({@code format=tar+zstd} on a {@code tcp://} location): one archive on one
 * connection into a real {@code nc -l | zstd -d | tar x} on loopback, and the settings that make no sense on one stream
 * refused as problems before the job exists.
 */
class TarJobIntegrationTest extends ServerTestSupport {
    @Test
    void aTarJobIsOneArchiveThatTarExtractsWhole() throws Exception {
        Path source = tree(temp.resolve("src"));
        Files.createDirectories(source.resolve("empty-dir"));
        Path out = Files.createDirectories(temp.resolve("out"));
        int port = freePort();
        // nc takes exactly one connection: a check or a second unit opening its own would leave the archive short or absent
        Process receiver = new ProcessBuilder("bash", "-c", "set -o pipefail; nc -l 127.0.0.1 " + port + " | zstd -d -q | tar x -C " + out)
                .redirectErrorStream(true).redirectOutput(temp.resolve("untar.log").toFile()).start();
        try {
            awaitListening(port);
            JobResponse job = client.post().uri("/api/v1/jobs").contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(Map.of("kind", "copy", "source", source.toString(), "destination", "tcp://127.0.0.1:" + port + "/inbox",
                            "destinationConfig", Map.of("format", "tar+zstd")))
                    .exchange().expectStatus().isCreated().expectBody(JobResponse.class).returnResult().getResponseBody();
            assertThat(job).isNotNull();
            JobResponse ended = awaitEnd(job.id());
            assertThat(ended.state()).as(String.valueOf(ended.errors())).isEqualTo("SUCCEEDED");
            assertThat(receiver.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(receiver.exitValue()).as(Files.readString(temp.resolve("untar.log"))).isZero();
        }
        finally {
            receiver.destroyForcibly();
        }
        assertThat(hashes(out.resolve("inbox"))).isEqualTo(hashes(source));
        assertThat(out.resolve("inbox/empty-dir")).isDirectory();
        // the folder's entry came after its files (tar then sets its time last); PAX times carry 100 ns
        assertThat(Files.getLastModifiedTime(out.resolve("inbox/a/b")).toInstant().truncatedTo(java.time.temporal.ChronoUnit.MICROS))
                .isEqualTo(Files.getLastModifiedTime(source.resolve("a/b")).toInstant().truncatedTo(java.time.temporal.ChronoUnit.MICROS));
    }

    @Test
    void settingsThatMakeNoSenseOnOneStreamAreProblems() throws IOException {
        Path source = tree(temp.resolve("src"));
        String destination = "tcp://127.0.0.1:" + freePort() + "/x";
        problem(post(json(source, destination, "{\"format\": \"tar\", \"streams\": \"4\"}", "")), HttpStatus.BAD_REQUEST, "invalid-argument")
                .jsonPath("$.detail").value(detail -> assertThat((String) detail).contains("a tar stream is one connection"));
        problem(post(json(source, destination, "{\"format\": \"tar+zstd\"}", ", \"options\": {\"verify\": true}")), HttpStatus.BAD_REQUEST,
                "invalid-argument").jsonPath("$.detail").value(detail -> assertThat((String) detail).contains("one sequential stream"));
        problem(post(json(source, destination, "{\"format\": \"tar\"}", ", \"options\": {\"codec\": \"zstd\"}")), HttpStatus.BAD_REQUEST,
                "invalid-argument").jsonPath("$.detail").value(detail -> assertThat((String) detail).contains("compresses it whole"));
        problem(post(json(source, destination, "{\"format\": \"tar\", \"token\": \"secret-0123456789\"}", "")), HttpStatus.BAD_REQUEST,
                "invalid-argument").jsonPath("$.detail").value(detail -> assertThat((String) detail).contains("no authentication"));
        problem(post("{\"kind\": \"sync\", \"source\": \"" + source + "\", \"destination\": \"" + destination
                + "\", \"destinationConfig\": {\"format\": \"tar\"}}"), HttpStatus.BAD_REQUEST, "invalid-argument")
                .jsonPath("$.detail").value(detail -> assertThat((String) detail).contains("use a copy"));
    }

    private static String json(Path source, String destination, String config, String more) {
        return "{\"kind\": \"copy\", \"source\": \"" + source + "\", \"destination\": \"" + destination + "\", \"destinationConfig\": " + config + more + "}";
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** Waits until nc listens (ss lists the port), so the job does not race it. */
    private static void awaitListening(int port) throws Exception {
        for (int attempt = 0; attempt < 200; attempt++) {
            Process ss = new ProcessBuilder("ss", "-Hltn", "sport = :" + port).redirectErrorStream(true).start();
            String listed = new String(ss.getInputStream().readAllBytes());
            ss.waitFor(5, TimeUnit.SECONDS);
            if (listed.contains(":" + port)) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("nc did not listen on " + port);
    }
}
