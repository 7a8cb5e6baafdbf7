package io.mover.server;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import io.mover.server.bench.BenchResponse;

import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;

import static org.assertj.core.api.Assertions.assertThat;

/** Bench jobs over HTTP: submit, follow, the JSON and HTML reports, bad input, scopes. */
class BenchApiIntegrationTest extends ServerTestSupport {
    @Test
    void aTransferBenchRunsAndReports() throws Exception {
        Path target = Files.createDirectories(temp.resolve("target"));
        BenchResponse created = client.post().uri("/api/v1/benches").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("target", target.toString(), "files", 12, "size", "16KiB", "concurrency", List.of(1, 2)))
                .exchange().expectStatus().isCreated().expectBody(BenchResponse.class).returnResult().getResponseBody();
        assertThat(created).isNotNull();
        assertThat(created.kind()).isEqualTo("bench");

        BenchResponse ended = awaitBench(created.id());

        assertThat(ended.state()).as(ended.error()).isEqualTo("SUCCEEDED");
        assertThat(ended.report().sweep()).hasSize(2);
        assertThat(ended.report().recommendation().options()).startsWith("--concurrency");
        String html = client.get().uri("/api/v1/benches/{id}/report.html", created.id()).exchange().expectStatus().isOk()
                .expectBody(String.class).returnResult().getResponseBody();
        assertThat(html).contains("<svg", "Concurrency sweep");
        client.get().uri("/api/v1/benches").exchange().expectStatus().isOk().expectBody().jsonPath("$[0].id").isEqualTo(created.id());
        problem(client.post().uri("/api/v1/benches/{id}/cancel", created.id()).exchange(), HttpStatus.CONFLICT, "job-ended");
        try (Stream<Path> left = Files.list(target)) {
            assertThat(left).isEmpty();
        }
    }

    @Test
    void aBenchThatFailsSaysWhy() throws Exception {
        Path target = Files.createDirectories(temp.resolve("target"));
        Files.createDirectories(target.resolve("mover-bench"));
        String id = client.post().uri("/api/v1/benches").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("target", target.toString(), "files", 1)).exchange().expectStatus().isCreated()
                .expectBody(BenchResponse.class).returnResult().getResponseBody().id();

        BenchResponse ended = awaitBench(id);

        assertThat(ended.state()).isEqualTo("FAILED");
        assertThat(ended.error()).contains("is not mover's");
        client.get().uri("/api/v1/benches/{id}/report.html", id).exchange().expectStatus().isEqualTo(HttpStatus.CONFLICT);
    }

    @Test
    void badFieldsAreOneProblemAndReadTokensCannotSubmit() {
        problem(client.post().uri("/api/v1/benches").contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"mode\": \"fast\", \"size\": \"lots\"}").exchange(), HttpStatus.BAD_REQUEST, "invalid-request")
                .jsonPath("$.errors[*].field").isEqualTo(List.of("mode", "target", "size"));
        problem(client.post().uri("/api/v1/benches").contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"target\": \"/tmp/x\", \"concurrency\": [0]}").exchange(), HttpStatus.BAD_REQUEST, "invalid-request")
                .jsonPath("$.errors[0].reason").value(reason -> assertThat((String) reason).contains("--concurrency"));
        problem(client.get().uri("/api/v1/benches/{id}", "nope").exchange(), HttpStatus.NOT_FOUND, "job-not-found");
        problem(post("{\"kind\": \"bench\", \"source\": \"gen:///\", \"destination\": \"/tmp/x\"}"), HttpStatus.BAD_REQUEST, "invalid-request")
                .jsonPath("$.errors[0].reason").value(reason -> assertThat((String) reason).contains("POST /api/v1/benches"));
        as(READ_TOKEN).post().uri("/api/v1/benches").contentType(MediaType.APPLICATION_JSON).bodyValue("{\"target\": \"/tmp/x\"}")
                .exchange().expectStatus().isForbidden();
    }

    private BenchResponse awaitBench(String id) throws InterruptedException {
        long deadline = System.nanoTime() + JOB_TIMEOUT.toNanos();
        for (int attempt = 0; attempt < 600 && System.nanoTime() < deadline; attempt++) {
            BenchResponse bench = client.get().uri("/api/v1/benches/{id}", id).exchange().expectStatus().isOk()
                    .expectBody(BenchResponse.class).returnResult().getResponseBody();
            assertThat(bench).isNotNull();
            if (bench.ended() != null) {
                return bench;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("bench " + id + " did not end within " + JOB_TIMEOUT);
    }
}
