package io.mover.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code mover jobs pause|resume} against a stub of the API on loopback (the server's endpoints are
 * being added on another branch): the request the CLI sends, and how it shows 200 and 409 answers.
 */
@Timeout(30)
class JobActionStubTest {
    private static final String ID = "152a86d5-5c65-4eda-aee1-f32fe310d742";
    private static final String TOKEN = "stub-token-0123456789abcdef";

    private record Seen(String method, String path, String authorization, String accept, int bodyLength) {}

    private final List<Seen> seen = new CopyOnWriteArrayList<>();
    private HttpServer stub;
    private String url;
    private volatile int status;
    private volatile String body;

    @BeforeEach
    void startStub() throws IOException {
        stub = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        stub.createContext("/", this::answer);
        stub.start();
        url = "http://127.0.0.1:" + stub.getAddress().getPort();
    }

    @AfterEach
    void stopStub() {
        stub.stop(0);
    }

    private void answer(HttpExchange exchange) throws IOException {
        byte[] request = exchange.getRequestBody().readAllBytes();
        seen.add(new Seen(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
                exchange.getRequestHeaders().getFirst("Authorization"), exchange.getRequestHeaders().getFirst("Accept"), request.length));
        byte[] reply = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", status == 200 ? "application/json" : "application/problem+json");
        exchange.sendResponseHeaders(status, reply.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(reply);
        }
    }

    private void reply(int status, String body) {
        this.status = status;
        this.body = body;
    }

    private static String job(String state) {
        return "{\"id\":\"" + ID + "\",\"state\":\"" + state + "\",\"created\":\"2026-11-23T09:16:28.918Z\",\"stages\":[],\"someFutureField\":1}";
    }

    @Test
    void pausePostsToThePauseEndpointWithTheTokenAndPrintsTheNewState() {
        reply(200, job("PAUSED"));

        CliRun run = CliRun.of("jobs", "pause", ID, "--server", url, "--token", TOKEN);

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo("job " + ID + ": PAUSED" + System.lineSeparator());
        assertThat(seen).containsExactly(new Seen("POST", "/api/v1/jobs/" + ID + "/pause", "Bearer " + TOKEN, "application/json", 0));
    }

    @Test
    void resumePostsToTheResumeEndpointAndPrintsJsonWhenAsked() {
        reply(200, job("RUNNING"));

        CliRun run = CliRun.of("jobs", "resume", ID, "--server", url + "/api/v1/", "--output", "json");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(JsonOutput.MAPPER.readTree(run.out()).get("state").asString()).isEqualTo("RUNNING");
        assertThat(seen).containsExactly(new Seen("POST", "/api/v1/jobs/" + ID + "/resume", null, "application/json", 0));
    }

    @Test
    void aConflictIsTheProblemsDetailAndExitOne() {
        reply(409, "{\"type\":\"urn:mover:problem:job-ended\",\"title\":\"Job ended\",\"status\":409,"
                + "\"detail\":\"job " + ID + " has ended (SUCCEEDED): it cannot be paused\",\"instance\":\"/api/v1/jobs/" + ID + "/pause\"}");

        CliRun pause = CliRun.of("jobs", "pause", ID, "--server", url);
        CliRun resume = CliRun.of("jobs", "resume", ID, "--server", url);

        assertThat(pause.exitCode()).isEqualTo(1);
        assertThat(pause.out()).isEmpty();
        assertThat(pause.errLines()).containsExactly("mover: job " + ID + " has ended (SUCCEEDED): it cannot be paused");
        assertThat(resume.exitCode()).isEqualTo(1);
        assertThat(seen).extracting(Seen::path).containsExactly("/api/v1/jobs/" + ID + "/pause", "/api/v1/jobs/" + ID + "/resume");
    }

    @Test
    void aServerWithoutTheEndpointSaysItIsOlder() {
        reply(404, "{\"type\":\"about:blank\",\"title\":\"Not Found\",\"status\":404,\"detail\":\"No static resource api/v1/jobs/x/pause.\"}");

        CliRun run = CliRun.of("jobs", "pause", ID, "--server", url);

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.errLines()).singleElement().asString().contains("does not offer this", "older version");
    }

    @Test
    void aServerErrorIsExitSevenAndNotAJsonReplyIsStillOneLine() {
        reply(502, "<html><body>Bad gateway</body></html>");

        CliRun run = CliRun.of("jobs", "pause", ID, "--server", url);

        assertThat(run.exitCode()).isEqualTo(7);
        assertThat(run.errLines()).containsExactly("mover: the mover server at " + url + " failed: HTTP 502");
    }
}
