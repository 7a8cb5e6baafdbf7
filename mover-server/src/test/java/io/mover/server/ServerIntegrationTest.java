package io.mover.server;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;

import io.mover.server.job.web.JobResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.test.web.reactive.server.WebTestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The server end to end, over HTTP on loopback: one Spring context (with tokens configured) shared by
 * every test here, because starting one costs seconds on a small machine.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "mover.data-dir=target/test-data/${random.uuid}",
        "mover.tokens[0].token=" + ServerIntegrationTest.READ_TOKEN,
        "mover.tokens[0].scope=read",
        "mover.tokens[1].token=" + ServerIntegrationTest.OPERATE_TOKEN,
        "mover.tokens[1].scope=operate"})
@AutoConfigureWebTestClient
class ServerIntegrationTest {
    static final String READ_TOKEN = "read-token-0123456789abcdef";
    static final String OPERATE_TOKEN = "operate-token-0123456789abcdef";
    private static final Duration JOB_TIMEOUT = Duration.ofSeconds(60);

    @Autowired
    private WebTestClient autoconfigured;
    private WebTestClient anonymous;
    private WebTestClient client;

    @TempDir
    Path temp;

    @BeforeEach
    void operator() {
        // generous: two cores shared with other builds make a first call slow
        anonymous = autoconfigured.mutate().responseTimeout(Duration.ofSeconds(30)).build();
        client = anonymous.mutate().defaultHeader(HttpHeaders.AUTHORIZATION, "Bearer " + OPERATE_TOKEN).build();
    }

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

        // the job's meters reach Prometheus
        String metrics = client.get().uri("/actuator/prometheus").exchange()
                .expectStatus().isOk().expectBody(String.class).returnResult().getResponseBody();
        assertThat(metrics).contains("mover_jobs{state=\"succeeded\"}", "mover_files_total{outcome=\"transferred\"}",
                "mover_stage_bytes_total{stage=\"write\"}");
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
        client.post().uri("/api/v1/jobs/{id}/cancel", id).exchange()
                .expectStatus().isOk()
                .expectBody().jsonPath("$.id").isEqualTo(id);

        // cancelled in flight or already done: either way it ends, and cancelling again changes nothing
        String state = awaitEnd(id).state();
        assertThat(state).isIn("CANCELLED", "SUCCEEDED");
        client.post().uri("/api/v1/jobs/{id}/cancel", id).exchange()
                .expectStatus().isOk().expectBody().jsonPath("$.state").isEqualTo(state);
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
    void listsPlugins() {
        client.get().uri("/api/v1/plugins").exchange()
                .expectStatus().isOk()
                .expectBody().jsonPath("$[?(@.name == 'local')].sources[0]").isEqualTo(List.of("file"));
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
                .expectHeader().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON);
    }

    @Test
    void tokensGuardTheApi() {
        problem(anonymous.get().uri("/api/v1/jobs").exchange(), HttpStatus.UNAUTHORIZED, "unauthorized");
        anonymous.get().uri("/api/v1/jobs").header(HttpHeaders.AUTHORIZATION, "Bearer wrong-token-0123456789abcdef").exchange()
                .expectStatus().isUnauthorized()
                .expectHeader().valueMatches(HttpHeaders.WWW_AUTHENTICATE, "Bearer .*invalid_token.*");
        WebTestClient reader = anonymous.mutate().defaultHeader(HttpHeaders.AUTHORIZATION, "Bearer " + READ_TOKEN).build();
        reader.get().uri("/api/v1/jobs").exchange().expectStatus().isOk();
        problem(reader.post().uri("/api/v1/jobs").contentType(MediaType.APPLICATION_JSON).bodyValue("{}").exchange(),
                HttpStatus.FORBIDDEN, "forbidden");
        problem(reader.post().uri("/api/v1/jobs/{id}/cancel", "00000000-0000-0000-0000-000000000000").exchange(),
                HttpStatus.FORBIDDEN, "forbidden");
        anonymous.get().uri("/actuator/health").exchange().expectStatus().isOk().expectBody().jsonPath("$.status").isEqualTo("UP");
        problem(anonymous.get().uri("/actuator/prometheus").exchange(), HttpStatus.UNAUTHORIZED, "unauthorized");
    }

    private WebTestClient.ResponseSpec post(String json) {
        return client.post().uri("/api/v1/jobs").contentType(MediaType.APPLICATION_JSON).bodyValue(json).exchange();
    }

    private static WebTestClient.BodyContentSpec problem(WebTestClient.ResponseSpec response, HttpStatus status, String type) {
        return response.expectStatus().isEqualTo(status)
                .expectHeader().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody()
                .jsonPath("$.type").isEqualTo("urn:mover:problem:" + type)
                .jsonPath("$.status").isEqualTo(status.value())
                .jsonPath("$.detail").exists()
                .jsonPath("$.trace").doesNotExist();
    }

    private String submit(Path source, Path destination) {
        JobResponse job = client.post().uri("/api/v1/jobs").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("kind", "copy", "source", source.toString(), "destination", destination.toString()))
                .exchange()
                .expectStatus().isCreated()
                .expectBody(JobResponse.class).returnResult().getResponseBody();
        assertThat(job).isNotNull();
        return job.id();
    }

    private JobResponse awaitEnd(String id) throws InterruptedException {
        long deadline = System.nanoTime() + JOB_TIMEOUT.toNanos();
        for (int attempt = 0; attempt < 600 && System.nanoTime() < deadline; attempt++) {
            JobResponse job = client.get().uri("/api/v1/jobs/{id}", id).exchange()
                    .expectStatus().isOk().expectBody(JobResponse.class).returnResult().getResponseBody();
            assertThat(job).isNotNull();
            if (job.result() != null) {
                return job;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("job " + id + " did not end within " + JOB_TIMEOUT);
    }

    /** A small tree: nested folders, an empty file, small files and one of several blocks. */
    private static Path tree(Path root) throws IOException {
        Random random = new Random(42);
        Files.createDirectories(root.resolve("a/b"));
        Files.write(root.resolve("empty.txt"), new byte[0]);
        for (int i = 0; i < 12; i++) {
            byte[] data = new byte[random.nextInt(20_000)];
            random.nextBytes(data);
            Files.write(root.resolve((i % 3 == 0 ? "a/b/" : i % 3 == 1 ? "a/" : "") + "file-" + i + ".bin"), data);
        }
        byte[] large = new byte[3 * 1024 * 1024 + 17];
        random.nextBytes(large);
        Files.write(root.resolve("a/large.bin"), large);
        return root;
    }

    private static Map<String, String> hashes(Path root) throws IOException {
        Map<String, String> hashes = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                hashes.put(root.relativize(file).toString(), sha256(file));
            }
        }
        return hashes;
    }

    private static String sha256(Path file) throws IOException {
        try (InputStream in = new DigestInputStream(Files.newInputStream(file), MessageDigest.getInstance("SHA-256"))) {
            MessageDigest digest = ((DigestInputStream) in).getMessageDigest();
            in.transferTo(java.io.OutputStream.nullOutputStream());
            return HexFormat.of().formatHex(digest.digest());
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
