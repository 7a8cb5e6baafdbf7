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
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;

import io.mover.server.job.web.JobResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.test.web.reactive.server.WebTestClient;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The server over HTTP on loopback, for the integration tests: one Spring context (tokens of every
 * scope and a credential configured) shared by every subclass, because starting one costs seconds on a
 * small machine.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "mover.data-dir=target/test-data/${random.uuid}",
        "mover.tokens[0].token=" + ServerTestSupport.READ_TOKEN,
        "mover.tokens[0].scope=read",
        "mover.tokens[1].token=" + ServerTestSupport.OPERATE_TOKEN,
        "mover.tokens[1].scope=operate",
        "mover.tokens[2].token=" + ServerTestSupport.ADMIN_TOKEN,
        "mover.tokens[2].scope=admin",
        "mover.credentials.durable.fsync=" + ServerTestSupport.CREDENTIAL_VALUE})
@AutoConfigureWebTestClient
abstract class ServerTestSupport {
    static final String READ_TOKEN = "read-token-0123456789abcdef";
    static final String OPERATE_TOKEN = "operate-token-0123456789abcdef";
    static final String ADMIN_TOKEN = "admin-token-0123456789abcdef";
    /** A value the local sink accepts for fsync, spelled so that it appears nowhere else. */
    static final String CREDENTIAL_VALUE = "YES";
    static final Duration JOB_TIMEOUT = Duration.ofSeconds(60);

    @Autowired
    private WebTestClient autoconfigured;
    WebTestClient anonymous;
    WebTestClient client;

    @TempDir
    Path temp;

    @BeforeEach
    void operator() {
        // generous: two cores shared with other builds make a first call slow
        // a new connection per request: the 413 tests answer before a body is read, and a pooled
        // connection left behind by them was the suspect of rare 30 s stalls of later requests
        anonymous = autoconfigured.mutate()
                .clientConnector(new ReactorClientHttpConnector(HttpClient.create(ConnectionProvider.newConnection())))
                .responseTimeout(Duration.ofSeconds(30)).build();
        client = as(OPERATE_TOKEN);
    }

    WebTestClient as(String token) {
        return anonymous.mutate().defaultHeader(HttpHeaders.AUTHORIZATION, "Bearer " + token).build();
    }

    WebTestClient.ResponseSpec post(String json) {
        return client.post().uri("/api/v1/jobs").contentType(MediaType.APPLICATION_JSON).bodyValue(json).exchange();
    }

    static WebTestClient.BodyContentSpec problem(WebTestClient.ResponseSpec response, HttpStatus status, String type) {
        return response.expectStatus().isEqualTo(status)
                .expectHeader().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody()
                .jsonPath("$.type").isEqualTo("urn:mover:problem:" + type)
                .jsonPath("$.status").isEqualTo(status.value())
                .jsonPath("$.detail").exists()
                .jsonPath("$.trace").doesNotExist();
    }

    String submit(Path source, Path destination) {
        JobResponse job = client.post().uri("/api/v1/jobs").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("kind", "copy", "source", source.toString(), "destination", destination.toString()))
                .exchange()
                .expectStatus().isCreated()
                .expectBody(JobResponse.class).returnResult().getResponseBody();
        assertThat(job).isNotNull();
        return job.id();
    }

    JobResponse awaitEnd(String id) throws InterruptedException {
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
    static Path tree(Path root) throws IOException {
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

    static Map<String, String> hashes(Path root) throws IOException {
        Map<String, String> hashes = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                hashes.put(root.relativize(file).toString(), sha256(file));
            }
        }
        return hashes;
    }

    static String sha256(Path file) throws IOException {
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
