package io.mover.server;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import io.mover.bench.BenchReport;
import io.mover.bench.JsonReport;
import io.mover.server.bench.BenchResponse;
import io.mover.server.job.web.JobResponse;

import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;

import static org.assertj.core.api.Assertions.assertThat;

/** Bench jobs over HTTP: jobs of kind bench in the job store, their reports, the /api/v1/benches alias, bad input, scopes. */
class BenchApiIntegrationTest extends ServerTestSupport {
    @Test
    void aBenchIsAJobListedByKindWithItsReportAsJsonAndHtml() throws Exception {
        Path target = Files.createDirectories(temp.resolve("target"));
        JobResponse created = client.post().uri("/api/v1/jobs").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("kind", "bench", "destination", target.toString(), "options",
                        Map.of("codec", "none", "bench", Map.of("files", 12, "size", "16KiB", "concurrency", List.of(1, 2)))))
                .exchange().expectStatus().isCreated().expectBody(JobResponse.class).returnResult().getResponseBody();
        assertThat(created).isNotNull();
        assertThat(created.spec().kind()).isEqualTo("bench");
        assertThat(created.spec().source()).isEqualTo("gen:///");
        assertThat(created.spec().options().bench().concurrency()).containsExactly(1, 2);

        JobResponse ended = awaitEnd(created.id());

        assertThat(ended.state()).as(String.valueOf(ended.errors())).isEqualTo("SUCCEEDED");
        assertThat(ended.progress().phase().step()).isEqualTo(4);
        assertThat(ended.progress().percent()).isEqualTo(100.0);
        // the Spring context (and its job store) is shared with the other tests: other jobs may be listed too
        client.get().uri("/api/v1/jobs?kind=bench&limit=500").exchange().expectStatus().isOk().expectBody()
                .jsonPath("$.items[?(@.id == '" + created.id() + "')]").exists()
                .jsonPath("$.items[?(@.spec.kind != 'bench')]").isEmpty();
        client.get().uri("/api/v1/jobs?kind=copy&limit=500").exchange().expectStatus().isOk().expectBody()
                .jsonPath("$.items[?(@.id == '" + created.id() + "')]").isEmpty();
        String json = client.get().uri("/api/v1/jobs/{id}/report", created.id()).exchange().expectStatus().isOk()
                .expectHeader().contentTypeCompatibleWith(MediaType.APPLICATION_JSON).expectBody(String.class).returnResult().getResponseBody();
        BenchReport report = JsonReport.parse(json);
        assertThat(report.sweep()).extracting(BenchReport.SweepPoint::concurrency).containsExactly(1, 2);
        for (var html : List.of(client.get().uri("/api/v1/jobs/{id}/report?format=html", created.id()).exchange(),
                client.get().uri("/api/v1/jobs/{id}/report", created.id()).accept(MediaType.TEXT_HTML).exchange())) {
            assertThat(html.expectStatus().isOk().expectHeader().contentTypeCompatibleWith(MediaType.TEXT_HTML).expectBody(String.class)
                    .returnResult().getResponseBody()).contains("<svg", "Concurrency sweep");
        }
        // the same job through the first bench API
        BenchResponse alias = client.get().uri("/api/v1/benches/{id}", created.id()).exchange().expectStatus().isOk()
                .expectBody(BenchResponse.class).returnResult().getResponseBody();
        assertThat(alias.state()).isEqualTo("SUCCEEDED");
        assertThat(alias.report()).isEqualTo(report);
        problem(client.post().uri("/api/v1/jobs/{id}/cancel", created.id()).exchange(), HttpStatus.CONFLICT, "job-ended");
        try (Stream<Path> left = Files.list(target)) {
            assertThat(left).isEmpty();
        }
    }

    @Test
    void theBenchesAliasSubmitsFollowsAndCancelsTheSameJobs() throws Exception {
        Path target = Files.createDirectories(temp.resolve("target"));
        BenchResponse created = client.post().uri("/api/v1/benches").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("mode", "io", "target", target.toString(), "ioSize", "1MiB", "queueDepths", List.of(1), "runtime", "30s",
                        "writeBlockSizes", List.of("64KiB")))
                .exchange().expectStatus().isCreated().expectBody(BenchResponse.class).returnResult().getResponseBody();
        assertThat(created.kind()).isEqualTo("bench");
        assertThat(created.mode()).isEqualTo("io");
        awaitRunning(created.id());
        client.get().uri("/api/v1/jobs/{id}", created.id()).exchange().expectStatus().isOk().expectBody()
                .jsonPath("$.progress.phase.description").value(text -> assertThat((String) text).isNotBlank())
                .jsonPath("$.spec.options.bench.mode").isEqualTo("io");
        problem(client.get().uri("/api/v1/jobs/{id}/report", created.id()).exchange(), HttpStatus.CONFLICT, "no-report")
                .jsonPath("$.state").isEqualTo("RUNNING");
        problem(client.post().uri("/api/v1/jobs/{id}/pause", created.id()).exchange(), HttpStatus.BAD_REQUEST, "unsupported");

        client.post().uri("/api/v1/benches/{id}/cancel", created.id()).exchange().expectStatus().isOk().expectBody(Void.class);

        BenchResponse ended = awaitBench(created.id());
        assertThat(ended.state()).isEqualTo("CANCELLED");
        client.get().uri("/api/v1/benches").exchange().expectStatus().isOk().expectBody().jsonPath("$[0].id").isEqualTo(created.id());
        problem(client.get().uri("/api/v1/benches/{id}/report.html", created.id()).exchange(), HttpStatus.CONFLICT, "no-report");
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
        assertThat(ended.code()).isEqualTo("ALREADY_EXISTS");
        problem(client.get().uri("/api/v1/benches/{id}/report.html", id).exchange(), HttpStatus.CONFLICT, "no-report");
    }

    @Test
    void badFieldsAreOneProblemAndReadTokensCannotSubmit() {
        problem(client.post().uri("/api/v1/benches").contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"mode\": \"fast\", \"size\": \"lots\"}").exchange(), HttpStatus.BAD_REQUEST, "invalid-request")
                .jsonPath("$.errors[*].field").isEqualTo(List.of("mode", "size", "target"));
        problem(client.post().uri("/api/v1/benches").contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"target\": \"/tmp/x\", \"concurrency\": [0]}").exchange(), HttpStatus.BAD_REQUEST, "invalid-request")
                .jsonPath("$.errors[0].reason").value(reason -> assertThat((String) reason).contains("--concurrency"));
        problem(post("{\"kind\": \"bench\", \"destination\": \"/tmp/x\", \"options\": {\"bench\": {\"mode\": \"fast\", \"concurrency\": [0]}}}"),
                HttpStatus.BAD_REQUEST, "invalid-request").jsonPath("$.errors[0].field").isEqualTo("options.bench.mode");
        problem(post("{\"kind\": \"bench\", \"source\": \"/data\", \"destination\": \"/tmp/x\"}"), HttpStatus.BAD_REQUEST, "invalid-request")
                .jsonPath("$.errors[0].field").isEqualTo("source");
        problem(post("{\"kind\": \"copy\", \"source\": \"/data\", \"destination\": \"/tmp/x\", \"options\": {\"bench\": {}}}"),
                HttpStatus.BAD_REQUEST, "invalid-request").jsonPath("$.errors[0].field").isEqualTo("options.bench");
        problem(client.get().uri("/api/v1/jobs?kind=move").exchange(), HttpStatus.BAD_REQUEST, "invalid-request")
                .jsonPath("$.errors[0].field").isEqualTo("kind");
        problem(client.get().uri("/api/v1/benches/{id}", "nope").exchange(), HttpStatus.NOT_FOUND, "job-not-found");
        problem(client.get().uri("/api/v1/jobs/{id}/report", "nope").exchange(), HttpStatus.NOT_FOUND, "job-not-found");
        as(READ_TOKEN).post().uri("/api/v1/benches").contentType(MediaType.APPLICATION_JSON).bodyValue("{\"target\": \"/tmp/x\"}")
                .exchange().expectStatus().isForbidden().expectBody(Void.class);
        as(READ_TOKEN).post().uri("/api/v1/jobs").contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"kind\": \"bench\", \"destination\": \"/tmp/x\"}").exchange().expectStatus().isForbidden().expectBody(Void.class);
    }

    private void awaitRunning(String id) throws InterruptedException {
        for (int attempt = 0; attempt < 600; attempt++) {
            JobResponse job = client.get().uri("/api/v1/jobs/{id}", id).exchange().expectStatus().isOk().expectBody(JobResponse.class)
                    .returnResult().getResponseBody();
            if (job.state().equals("RUNNING") && job.progress() != null && job.progress().phase() != null) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("bench " + id + " did not start");
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
