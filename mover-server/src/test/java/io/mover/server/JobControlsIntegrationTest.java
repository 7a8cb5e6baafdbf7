package io.mover.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import io.mover.server.job.web.FilePage;
import io.mover.server.job.web.JobResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import reactor.core.publisher.Flux;

import static org.assertj.core.api.Assertions.assertThat;

/** Live job controls, per-file results, bounded bodies and credentials, over HTTP. */
@ExtendWith(OutputCaptureExtension.class)
class JobControlsIntegrationTest extends ServerTestSupport {
    private static final MediaType MERGE_PATCH = MediaType.parseMediaType("application/merge-patch+json");

    /** Twenty files of 50 KB: eight seconds at the 1 Mbps the job starts with, so it is caught running. */
    private static Path slowTree(Path root) throws IOException {
        Files.createDirectories(root);
        Random random = new Random(7);
        for (int i = 0; i < 20; i++) {
            byte[] data = new byte[50_000];
            random.nextBytes(data);
            Files.write(root.resolve("f" + String.format("%02d", i) + ".bin"), data);
        }
        return root;
    }

    private String submitSlow(Path source, Path destination) {
        JobResponse job = client.post().uri("/api/v1/jobs").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("kind", "copy", "source", source.toString(), "destination", destination.toString(),
                        "options", Map.of("concurrency", 1, "bandwidthCapMbps", 1)))
                .exchange()
                .expectStatus().isCreated()
                .expectBody(JobResponse.class).returnResult().getResponseBody();
        assertThat(job).isNotNull();
        assertThat(job.settings().bandwidthCapMbps()).isEqualTo(1.0);
        assertThat(job.settings().bandwidthCapBytesPerSecond()).isEqualTo(125_000);
        assertThat(job.spec().options().bandwidthCapMbps()).isEqualTo(1.0);
        return job.id();
    }

    private JobResponse awaitState(String id, String state) throws InterruptedException {
        long deadline = System.nanoTime() + JOB_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            JobResponse job = client.get().uri("/api/v1/jobs/{id}", id).exchange()
                    .expectStatus().isOk().expectBody(JobResponse.class).returnResult().getResponseBody();
            assertThat(job).isNotNull();
            if (job.state().equals(state)) {
                return job;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("job " + id + " did not reach " + state);
    }

    @Test
    void pausePatchResumeAndTheFailedFiles() throws Exception {
        Path source = slowTree(temp.resolve("in"));
        Path destination = temp.resolve("out");
        String id = submitSlow(source, destination);

        client.post().uri("/api/v1/jobs/{id}/pause", id).exchange()
                .expectStatus().isOk()
                .expectBody().jsonPath("$.settings.pauseRequested").isEqualTo(true);
        client.patch().uri("/api/v1/jobs/{id}", id).contentType(MERGE_PATCH).bodyValue("{\"concurrency\": 4, \"bandwidthCapMbps\": null}")
                .exchange()
                .expectStatus().isOk()
                .expectBody()
                .jsonPath("$.settings.concurrency").isEqualTo(4)
                .jsonPath("$.settings.bandwidthCapBytesPerSecond").isEqualTo(0)
                .jsonPath("$.settings.bandwidthCapMbps").doesNotExist()
                .jsonPath("$.spec.options.concurrency").isEqualTo(1);
        awaitState(id, "PAUSED");
        client.get().uri("/api/v1/jobs?state=paused").exchange()
                .expectStatus().isOk()
                .expectBody().jsonPath("$.items[?(@.id == '" + id + "')].state").isEqualTo(List.of("PAUSED"));

        // files not copied yet disappear while the job is paused: those already listed fail at resume
        List<String> removed = new ArrayList<>();
        try (var files = Files.list(source)) {
            for (Path file : files.toList()) {
                if (!Files.exists(destination.resolve(file.getFileName()))) {
                    Files.delete(file);
                    removed.add(file.getFileName().toString());
                }
            }
        }
        assertThat(removed).isNotEmpty();
        client.patch().uri("/api/v1/jobs/{id}", id).contentType(MediaType.APPLICATION_JSON).bodyValue("{\"bandwidthCapMbps\": 1000}")
                .exchange()
                .expectStatus().isOk()
                .expectBody().jsonPath("$.settings.bandwidthCapMbps").isEqualTo(1000.0);
        client.post().uri("/api/v1/jobs/{id}/resume", id).exchange()
                .expectStatus().isOk()
                .expectBody().jsonPath("$.settings.pauseRequested").isEqualTo(false);
        JobResponse done = awaitEnd(id);

        assertThat(done.state()).isEqualTo("COMPLETED_WITH_ERRORS");
        assertThat(hashes(destination)).isEqualTo(hashes(source));
        FilePage failed = client.get().uri("/api/v1/jobs/{id}/files?outcome=failed&offset=0&limit=1", id).exchange()
                .expectStatus().isOk().expectBody(FilePage.class).returnResult().getResponseBody();
        assertThat(failed).isNotNull();
        assertThat(failed.items()).singleElement().satisfies(file -> {
            assertThat(removed).contains(file.path());
            assertThat(file.outcome()).isEqualTo("failed");
            assertThat(file.code()).isEqualTo("NOT_FOUND");
            assertThat(file.message()).isNotBlank();
            assertThat(file.attempts()).isEqualTo(1);
        });
        assertThat(failed.hasMore()).isEqualTo(done.errors().filesFailed() > 1);
        assertThat(failed.notKept()).isZero();

        // an ended job cannot be changed: 409
        problem(client.post().uri("/api/v1/jobs/{id}/pause", id).exchange(), HttpStatus.CONFLICT, "job-ended");
        problem(client.post().uri("/api/v1/jobs/{id}/resume", id).exchange(), HttpStatus.CONFLICT, "job-ended");
        problem(client.patch().uri("/api/v1/jobs/{id}", id).contentType(MERGE_PATCH).bodyValue("{\"concurrency\": 2}").exchange(),
                HttpStatus.CONFLICT, "job-ended").jsonPath("$.state").isEqualTo("COMPLETED_WITH_ERRORS");
    }

    @Test
    void badPatchesAndQueriesAreProblems() throws Exception {
        String id = submitSlow(slowTree(temp.resolve("in")), temp.resolve("out"));
        try {
            problem(client.patch().uri("/api/v1/jobs/{id}", id).contentType(MERGE_PATCH).bodyValue("{\"colour\": \"red\"}").exchange(),
                    HttpStatus.BAD_REQUEST, "invalid-request").jsonPath("$.errors[0].field").isEqualTo("colour");
            problem(client.patch().uri("/api/v1/jobs/{id}", id).contentType(MERGE_PATCH)
                    .bodyValue("{\"concurrency\": 0, \"bandwidthCapMbps\": 1e12}").exchange(), HttpStatus.BAD_REQUEST, "invalid-request")
                    .jsonPath("$.errors[*].field").isEqualTo(List.of("concurrency", "bandwidthCapMbps"));
            problem(client.patch().uri("/api/v1/jobs/{id}", id).contentType(MERGE_PATCH).bodyValue("{\"concurrency\": ").exchange(),
                    HttpStatus.BAD_REQUEST, "malformed-json");
            client.patch().uri("/api/v1/jobs/{id}", id).contentType(MediaType.TEXT_PLAIN).bodyValue("concurrency=2").exchange()
                    .expectStatus().isEqualTo(HttpStatus.UNSUPPORTED_MEDIA_TYPE).expectBody(Void.class);
            problem(client.patch().uri("/api/v1/jobs/{id}", "00000000-0000-0000-0000-000000000000").contentType(MERGE_PATCH)
                    .bodyValue("{\"concurrency\": 2}").exchange(), HttpStatus.NOT_FOUND, "job-not-found");
            problem(client.get().uri("/api/v1/jobs/{id}/files?outcome=lost&limit=0", id).exchange(), HttpStatus.BAD_REQUEST, "invalid-request")
                    .jsonPath("$.errors[*].field").isEqualTo(List.of("outcome", "limit"));
            problem(client.get().uri("/api/v1/jobs/{id}/files", "00000000-0000-0000-0000-000000000000").exchange(),
                    HttpStatus.NOT_FOUND, "job-not-found");
            problem(as(READ_TOKEN).post().uri("/api/v1/jobs/{id}/pause", id).exchange(), HttpStatus.FORBIDDEN, "forbidden");
            problem(as(READ_TOKEN).patch().uri("/api/v1/jobs/{id}", id).contentType(MERGE_PATCH).bodyValue("{}").exchange(),
                    HttpStatus.FORBIDDEN, "forbidden");
            problem(post("{\"kind\": \"copy\", \"source\": \"/a\", \"destination\": \"/b\", \"options\": {\"bandwidthCapMbps\": -1}}"),
                    HttpStatus.BAD_REQUEST, "invalid-request").jsonPath("$.errors[0].field").isEqualTo("options.bandwidthCapMbps");
            problem(post("{\"kind\": \"copy\", \"source\": \"file:///a b%zz\", \"destination\": \"/b\"}"),
                    HttpStatus.BAD_REQUEST, "invalid-argument")
                    .jsonPath("$.detail").value(detail -> assertThat((String) detail).contains("malformed location"));
        }
        finally {
            client.post().uri("/api/v1/jobs/{id}/cancel", id).exchange().expectBody(Void.class);   // releases the body
            awaitEnd(id);
        }
    }

    @Test
    void aHugeBodyIsA413AndTheServerCarriesOn() {
        byte[] twelveMegabytes = new byte[12 << 20];
        java.util.Arrays.fill(twelveMegabytes, (byte) ' ');
        problem(client.post().uri("/api/v1/jobs").contentType(MediaType.APPLICATION_JSON).bodyValue(twelveMegabytes).exchange(),
                HttpStatus.CONTENT_TOO_LARGE, "body-too-large");

        // without a declared length (chunked), the body is counted as it streams
        Flux<DataBuffer> chunks = Flux.range(0, 3).map(i -> DefaultDataBufferFactory.sharedInstance.wrap(new byte[1 << 20]));
        problem(client.post().uri("/api/v1/jobs").contentType(MediaType.APPLICATION_JSON).body(chunks, DataBuffer.class).exchange(),
                HttpStatus.CONTENT_TOO_LARGE, "body-too-large");

        client.get().uri("/api/v1/jobs").exchange().expectStatus().isOk().expectBody(Void.class);
        anonymous.get().uri("/actuator/health").exchange().expectStatus().isOk().expectBody(Void.class);
    }

    @Test
    void credentialsAreUsedByNameAndNoSecretIsReturnedOrLogged(CapturedOutput output) throws Exception {
        Path source = tree(temp.resolve("in"));
        String body = client.post().uri("/api/v1/jobs").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("kind", "copy", "source", source.toString(), "destination", temp.resolve("out").toString(),
                        "destinationCredential", "durable"))
                .exchange()
                .expectStatus().isCreated()
                .expectBody(String.class).returnResult().getResponseBody();
        assertThat(body).contains("\"destinationCredential\":\"durable\"", "\"destinationConfigKeys\":[\"fsync\"]")
                .doesNotContain(CREDENTIAL_VALUE);
        String id = body.substring(body.indexOf("\"id\":\"") + 6, body.indexOf("\"id\":\"") + 42);
        assertThat(awaitEnd(id).state()).isEqualTo("SUCCEEDED");
        client.get().uri("/api/v1/jobs/{id}", id).exchange()
                .expectStatus().isOk()
                .expectBody(String.class).value(job -> assertThat(job).contains("durable").doesNotContain(CREDENTIAL_VALUE));

        problem(post("{\"kind\": \"copy\", \"source\": \"" + source + "\", \"destination\": \"/b\", \"sourceCredential\": \"nope\"}"),
                HttpStatus.BAD_REQUEST, "invalid-request")
                .jsonPath("$.errors[0].field").isEqualTo("sourceCredential")
                .jsonPath("$.errors[0].reason").value(reason -> assertThat((String) reason).contains("durable"));
        String secret = "s3cr3t-inline-value-0123";
        String refused = client.post().uri("/api/v1/jobs").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("kind", "copy", "source", source.toString(), "destination", temp.resolve("o2").toString(),
                        "destinationConfig", Map.of("account-key", secret)))
                .exchange()
                .expectStatus().isBadRequest()
                .expectBody(String.class).returnResult().getResponseBody();
        assertThat(refused).contains("account-key").doesNotContain(secret);
        assertThat(output.getAll()).doesNotContain(secret).doesNotContain("fsync=" + CREDENTIAL_VALUE);
    }
}
