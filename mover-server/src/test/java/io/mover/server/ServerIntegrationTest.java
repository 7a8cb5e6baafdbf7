package io.mover.server;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import io.mover.server.job.web.JobResponse;
import org.junit.jupiter.api.Test;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.test.web.reactive.server.WebTestClient;

import static org.assertj.core.api.Assertions.assertThat;

/** The server end to end: jobs, events, plugins, problems and tokens. */
class ServerIntegrationTest extends ServerTestSupport {
    @Test
    void copiesATreeAndReportsTheResult() throws Exception {
        Path source = tree(temp.resolve("in"));
        Path destination = temp.resolve("out");
        String body = """
                {"kind": "copy", "source": "%s", "destination": "%s",
                 "options": {"concurrency": 4, "blockSize": "256KiB", "verify": true, "overwrite": "true"}}
                """.formatted(source, destination);

        JobResponse created = client.post().uri("/api/v1/jobs").contentType(MediaType.APPLICATION_JSON).bodyValue(body)
                .exchange()
                .expectStatus().isCreated()
                .expectHeader().valueMatches(HttpHeaders.LOCATION, "/api/v1/jobs/[0-9a-f-]{36}")
                .expectBody(JobResponse.class).returnResult().getResponseBody();
        assertThat(created).isNotNull();
        assertThat(created.spec().options().blockSize()).isEqualTo(256 * 1024);
        assertThat(created.spec().options().verify()).isTrue();

        JobResponse done = awaitEnd(created.id());
        assertThat(done.state()).isEqualTo("SUCCEEDED");
        assertThat(done.result().filesTransferred()).isEqualTo(hashes(source).size());
        assertThat(done.stages()).extracting(JobResponse.StageResponse::stage).contains("READ", "WRITE");
        assertThat(done.errors()).isNull();
        assertThat(hashes(destination)).isEqualTo(hashes(source));
        assertThat(done.spec().options().concurrency()).isEqualTo(4);
        assertThat(done.settings().concurrency()).isEqualTo(4);
        assertThat(done.settings().concurrencyOrigin()).isEqualTo("set");

        // the job's meters reach Prometheus
        String metrics = client.get().uri("/actuator/prometheus").exchange()
                .expectStatus().isOk().expectBody(String.class).returnResult().getResponseBody();
        assertThat(metrics).contains("mover_jobs{state=\"succeeded\"}", "mover_files_total{outcome=\"transferred\"}",
                "mover_stage_bytes_total{stage=\"write\"}", "mover_stage_busy_seconds_total{stage=\"write\"}",
                "mover_stage_wait_seconds_total{stage=\"read\"}", "mover_retries_total", "mover_buffer_pool_in_use_bytes");
        assertThat(metrics).doesNotContainPattern("mover_stage_busy_seconds_total\\{stage=\"write\"} 0\\.0\\R");
        assertThat(metrics).containsPattern("mover_jobs\\{state=\"succeeded\"} [1-9]").containsPattern("mover_units_claimed_total [1-9]")
                .contains("mover_units_revived_total");
    }

    @Test
    void aJobWithoutConcurrencySaysSoAndRunsWithTheDefaultOfALocalCopy() throws Exception {
        Path source = tree(temp.resolve("in"));
        String body = """
                {"kind": "copy", "source": "%s", "destination": "%s"}
                """.formatted(source, temp.resolve("out"));

        JobResponse created = client.post().uri("/api/v1/jobs").contentType(MediaType.APPLICATION_JSON).bodyValue(body)
                .exchange().expectStatus().isCreated().expectBody(JobResponse.class).returnResult().getResponseBody();
        assertThat(created).isNotNull();
        JobResponse done = awaitEnd(created.id());

        assertThat(done.state()).isEqualTo("SUCCEEDED");
        client.get().uri("/api/v1/jobs/{id}", created.id()).exchange().expectStatus().isOk().expectBody()
                .jsonPath("$.spec.options.concurrency").doesNotExist()
                .jsonPath("$.settings.concurrency").isEqualTo(16)
                .jsonPath("$.settings.concurrencyOrigin").isEqualTo("default");
    }

    @Test
    void listsGetsAndCancelsJobs() throws Exception {
        Path source = tree(temp.resolve("in"));
        String id = submit(source, temp.resolve("out"));

        client.get().uri("/api/v1/jobs?limit=1").exchange()
                .expectStatus().isOk()
                .expectBody()
                .jsonPath("$.items.length()").isEqualTo(1)
                .jsonPath("$.limit").isEqualTo(1)
                .jsonPath("$.offset").isEqualTo(0);
        client.get().uri("/api/v1/jobs/{id}", id).exchange()
                .expectStatus().isOk()
                .expectBody()
                .jsonPath("$.id").isEqualTo(id)
                .jsonPath("$.spec.source").isEqualTo(source.toString())
                .jsonPath("$.spec.kind").isEqualTo("copy");
        // cancelled in flight (200), or it had already ended (409): either way it ends
        client.post().uri("/api/v1/jobs/{id}/cancel", id).exchange()
                .expectStatus().value(status -> assertThat(status).isIn(200, 409))
                .expectBody(Void.class);

        String state = awaitEnd(id).state();
        assertThat(state).isIn("CANCELLED", "SUCCEEDED");
        problem(client.post().uri("/api/v1/jobs/{id}/cancel", id).exchange(), HttpStatus.CONFLICT, "job-ended")
                .jsonPath("$.state").isEqualTo(state);
        client.get().uri("/api/v1/jobs?state=" + state.toLowerCase()).exchange()
                .expectStatus().isOk()
                .expectBody().jsonPath("$.items[?(@.id == '" + id + "')].state").isEqualTo(List.of(state));
    }

    @Test
    void showsConfigurationKeysButNeverTheirValues() throws Exception {
        String body = client.post().uri("/api/v1/jobs").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("kind", "copy", "source", tree(temp.resolve("in")).toString(),
                        "destination", temp.resolve("out").toString(), "destinationConfig", Map.of("fsync", "yes")))
                .exchange()
                .expectStatus().isCreated()
                .expectBody(String.class).returnResult().getResponseBody();
        assertThat(body).contains("\"destinationConfigKeys\":[\"fsync\"]").doesNotContain("yes");
        String id = body.substring(body.indexOf("\"id\":\"") + 6, body.indexOf("\"id\":\"") + 42);
        assertThat(awaitEnd(id).state()).isEqualTo("SUCCEEDED");
    }

    @Test
    void streamsEventsUntilTheJobEnds() throws Exception {
        String id = submit(tree(temp.resolve("in")), temp.resolve("out"));

        List<ServerSentEvent<String>> events = client.get().uri("/api/v1/jobs/{id}/events", id)
                .accept(MediaType.TEXT_EVENT_STREAM)
                .exchange()
                .expectStatus().isOk()
                .returnResult(new ParameterizedTypeReference<ServerSentEvent<String>>() {})
                .getResponseBody()
                .take(1000)
                .collectList()
                .block(JOB_TIMEOUT);

        assertThat(events).isNotNull().isNotEmpty();
        // a job that ended before the stream opened gets its last progress and final state only
        assertThat(events.getFirst().event()).isIn("state", "progress");
        assertThat(events).anySatisfy(event -> assertThat(event.event()).isEqualTo("progress"));
        ServerSentEvent<String> last = events.getLast();
        assertThat(last.event()).isEqualTo("state");
        assertThat(last.data()).contains("\"state\":\"SUCCEEDED\"");
    }

    @Test
    void theOpenApiDescriptionListsTheControls() {
        String api = client.get().uri("/v3/api-docs").exchange()
                .expectStatus().isOk().expectBody(String.class).returnResult().getResponseBody();
        assertThat(api).contains("/api/v1/jobs/{id}/pause", "/api/v1/jobs/{id}/resume", "/api/v1/jobs/{id}/files",
                "application/merge-patch+json", "bandwidthCapMbps", "JobPatchRequest");
    }

    @Test
    void listsPlugins() {
        client.get().uri("/api/v1/plugins").exchange()
                .expectStatus().isOk()
                .expectBody().jsonPath("$[?(@.name == 'local')].sources[0]").isEqualTo(List.of("file"));
    }

    @Test
    void listsItselfAsAnUpNodeOfTheJobStore() {
        client.get().uri("/api/v1/nodes").exchange()
                .expectStatus().isOk()
                .expectBody()
                .jsonPath("$[?(@.self == true)].state").isEqualTo(List.of("up"))
                .jsonPath("$[?(@.self == true)].id").isEqualTo(List.of(io.mover.core.service.NodeView.localId()));
    }

    @Test
    void badInputIsAProblemNeverAServerError() throws Exception {
        Path source = tree(temp.resolve("in"));
        problem(client.post().uri("/api/v1/jobs").contentType(MediaType.APPLICATION_JSON).bodyValue("{\"kind\": \"copy\", \"source\": ")
                .exchange(), HttpStatus.BAD_REQUEST, "malformed-json")
                .jsonPath("$.detail").value(detail -> assertThat((String) detail).contains("not valid JSON"));
        problem(post("{\"kind\": \"copy\", \"source\": \"/a\", \"destination\": \"/b\", \"options\": {\"concurrency\": \"many\"}}"),
                HttpStatus.BAD_REQUEST, "invalid-request")
                .jsonPath("$.errors[0].field").isEqualTo("options.concurrency")
                .jsonPath("$.errors[0].reason").value(reason -> assertThat((String) reason).contains("whole number"));
        problem(post("{\"kind\": \"copy\", \"source\": \"/a\", \"destination\": \"/b\", \"options\": {\"dryrun\": true}}"),
                HttpStatus.BAD_REQUEST, "invalid-request")
                .jsonPath("$.errors[0].field").isEqualTo("options.dryrun")
                .jsonPath("$.errors[0].reason").value(reason -> assertThat((String) reason).contains("dryRun"));
        problem(post("{\"kind\": \"move\", \"destination\": \"/b\", \"options\": {\"overwrite\": \"sometimes\", \"concurrency\": 0}}"),
                HttpStatus.BAD_REQUEST, "invalid-request")
                .jsonPath("$.errors[*].field").isEqualTo(List.of("kind", "source", "options.concurrency", "options.overwrite"));
        problem(post("{\"kind\": \"copy\", \"source\": \"nosuch://host/x\", \"destination\": \"" + temp.resolve("o") + "\"}"),
                HttpStatus.BAD_REQUEST, "unknown-scheme")
                .jsonPath("$.code").isEqualTo("UNKNOWN_SCHEME")
                .jsonPath("$.installedSchemes").value(schemes -> assertThat(String.valueOf(schemes)).contains("file"));
        problem(post("{\"kind\": \"copy\", \"source\": \"" + temp.resolve("missing") + "\", \"destination\": \"" + temp.resolve("o") + "\"}"),
                HttpStatus.BAD_REQUEST, "not-found")
                .jsonPath("$.category").isEqualTo("NOT_FOUND");
        problem(post("{\"kind\": \"copy\", \"source\": \"" + source + "\", \"destination\": \"" + temp.resolve("o")
                + "\", \"destinationConfig\": {\"colour\": \"blue\"}}"), HttpStatus.BAD_REQUEST, "invalid-config")
                .jsonPath("$.errors[0].field").isEqualTo("colour");
        problem(client.get().uri("/api/v1/jobs/{id}", "00000000-0000-0000-0000-000000000000").exchange(), HttpStatus.NOT_FOUND, "job-not-found");
        problem(client.get().uri("/api/v1/jobs/not-a-job").exchange(), HttpStatus.NOT_FOUND, "job-not-found");
        problem(client.post().uri("/api/v1/jobs/{id}/cancel", "00000000-0000-0000-0000-000000000000").exchange(), HttpStatus.NOT_FOUND, "job-not-found");
        problem(client.get().uri("/api/v1/jobs/{id}/events", "00000000-0000-0000-0000-000000000000").exchange(), HttpStatus.NOT_FOUND, "job-not-found");
        problem(client.get().uri("/api/v1/jobs?state=sleeping&limit=0").exchange(), HttpStatus.BAD_REQUEST, "invalid-request")
                .jsonPath("$.errors[*].field").isEqualTo(List.of("state", "limit"));
        problem(client.post().uri("/api/v1/jobs").contentType(MediaType.APPLICATION_JSON).exchange(), HttpStatus.BAD_REQUEST,
                "invalid-request").jsonPath("$.detail").value(detail -> assertThat((String) detail).contains("no body"));
        client.get().uri("/api/v1/nothing-here").exchange()
                .expectStatus().isNotFound()
                .expectHeader().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody(Void.class);
    }

    @Test
    void tokensGuardTheApi() {
        problem(anonymous.get().uri("/api/v1/jobs").exchange(), HttpStatus.UNAUTHORIZED, "unauthorized");
        anonymous.get().uri("/api/v1/jobs").header(HttpHeaders.AUTHORIZATION, "Bearer wrong-token-0123456789abcdef").exchange()
                .expectStatus().isUnauthorized()
                .expectHeader().valueMatches(HttpHeaders.WWW_AUTHENTICATE, "Bearer .*invalid_token.*")
                .expectBody(Void.class);
        WebTestClient reader = anonymous.mutate().defaultHeader(HttpHeaders.AUTHORIZATION, "Bearer " + READ_TOKEN).build();
        reader.get().uri("/api/v1/jobs").exchange().expectStatus().isOk().expectBody(Void.class);
        problem(reader.post().uri("/api/v1/jobs").contentType(MediaType.APPLICATION_JSON).bodyValue("{}").exchange(),
                HttpStatus.FORBIDDEN, "forbidden");
        problem(reader.post().uri("/api/v1/jobs/{id}/cancel", "00000000-0000-0000-0000-000000000000").exchange(),
                HttpStatus.FORBIDDEN, "forbidden");
        anonymous.get().uri("/actuator/health").exchange().expectStatus().isOk().expectBody().jsonPath("$.status").isEqualTo("UP");
        problem(anonymous.get().uri("/actuator/prometheus").exchange(), HttpStatus.UNAUTHORIZED, "unauthorized");
        reader.get().uri("/actuator/prometheus").exchange().expectStatus().isOk().expectBody(Void.class);
    }

    @Test
    void adminIsAboveOperateAndGuardsTheRestOfTheActuator() {
        problem(anonymous.get().uri("/actuator/metrics").exchange(), HttpStatus.UNAUTHORIZED, "unauthorized");
        problem(as(READ_TOKEN).get().uri("/actuator/metrics").exchange(), HttpStatus.FORBIDDEN, "forbidden");
        problem(client.get().uri("/actuator/metrics").exchange(), HttpStatus.FORBIDDEN, "forbidden")
                .jsonPath("$.detail").value(detail -> assertThat((String) detail).contains("scope admin"));
        problem(client.get().uri("/actuator").exchange(), HttpStatus.FORBIDDEN, "forbidden");
        WebTestClient admin = as(ADMIN_TOKEN);
        admin.get().uri("/actuator/metrics").exchange().expectStatus().isOk()
                .expectBody().jsonPath("$.names").isArray();
        admin.get().uri("/api/v1/jobs").exchange().expectStatus().isOk().expectBody(Void.class);
        problem(admin.post().uri("/api/v1/jobs/{id}/pause", "00000000-0000-0000-0000-000000000000").exchange(),
                HttpStatus.NOT_FOUND, "job-not-found");
    }
}
