package io.mover.cli;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.Optional;

import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;

import io.mover.cli.ServerOptions.ServerTarget;
import io.mover.server.job.web.JobPage;
import io.mover.server.job.web.JobResponse;
import io.mover.server.schedule.web.ScheduleResponse;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

import static java.util.Objects.requireNonNull;

/**
 * The request/response calls of the REST API (docs/rest.md) on the JDK's HTTP client, which starts in
 * a fraction of the time Reactor Netty takes: {@code mover jobs list} is a short-lived process. The
 * event stream, which needs an SSE decoder, is {@link ServerEvents}. Replies are read into the
 * server's own response records, so the CLI and the server cannot disagree on the shape.
 */
final class ServerClient {
    /** Tolerant of members a newer server adds. */
    static final JsonMapper JSON = JsonMapper.builder().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();

    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);
    private static final String JOBS = "/api/v1/jobs";
    private static final String BENCHES = "/api/v1/benches";
    private static final String SCHEDULES = "/api/v1/schedules";

    private final ServerTarget target;
    private final HttpClient http;

    ServerClient(ServerTarget target) {
        this.target = requireNonNull(target, "target is null");
        // HTTP/1.1: the server speaks no cleartext HTTP/2, and the upgrade attempt costs a round trip
        HttpClient.Builder builder = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(CONNECT_TIMEOUT);
        if (target.base().getScheme().equalsIgnoreCase("http")) {
            builder.sslContext(noTls());
        }
        this.http = builder.build();
    }

    /**
     * The JDK client builds the default TLS context (reading the CA certificates, about 0.2 s) even for
     * plain http. A context without trust managers is cheap, and trusts no certificate should it ever
     * be used: this client only talks to the http URL it was given (no redirects are followed).
     */
    private static SSLContext noTls() {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(new KeyManager[0], new TrustManager[0], null);
            return context;
        }
        catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK has no TLS", e);
        }
    }

    URI base() {
        return target.base();
    }

    ServerTarget target() {
        return target;
    }

    JobResponse submit(Object body) {
        return send(request(JOBS).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body))), JobResponse.class);
    }

    JobPage list(Optional<String> state, int limit) {
        return list(state, Optional.empty(), Optional.empty(), limit);
    }

    /** Jobs, newest first, only in {@code state}, of {@code kind} ({@code copy}, {@code sync}, {@code bench}) and started by the schedule {@code scheduleId} when given. */
    JobPage list(Optional<String> state, Optional<String> kind, Optional<String> scheduleId, int limit) {
        String query = "?limit=" + limit + state.map(s -> "&state=" + URLEncoder.encode(s, StandardCharsets.UTF_8)).orElse("")
                + kind.map(k -> "&kind=" + URLEncoder.encode(k, StandardCharsets.UTF_8)).orElse("")
                + scheduleId.map(s -> "&schedule=" + URLEncoder.encode(s, StandardCharsets.UTF_8)).orElse("");
        return send(request(JOBS + query).GET(), JobPage.class);
    }

    ScheduleResponse createSchedule(Object body) {
        return send(request(SCHEDULES).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body))), ScheduleResponse.class);
    }

    ScheduleResponse.SchedulePage schedules() {
        return send(request(SCHEDULES).GET(), ScheduleResponse.SchedulePage.class);
    }

    /** A schedule by id or name. */
    ScheduleResponse schedule(String idOrName) {
        return send(request(SCHEDULES + "/" + segment(idOrName)).GET(), ScheduleResponse.class);
    }

    /** {@code pause} or {@code resume}: the schedule as it is after the request. */
    ScheduleResponse scheduleAction(String idOrName, String action) {
        return send(request(SCHEDULES + "/" + segment(idOrName) + "/" + action).POST(HttpRequest.BodyPublishers.noBody()), ScheduleResponse.class);
    }

    void deleteSchedule(String idOrName) {
        send(request(SCHEDULES + "/" + segment(idOrName)).DELETE(), Void.class);
    }

    /** The newest {@code limit} events of a schedule, oldest first. */
    ScheduleResponse.EventPage scheduleEvents(String idOrName, int limit) {
        return send(request(SCHEDULES + "/" + segment(idOrName) + "/events?limit=" + limit).GET(), ScheduleResponse.EventPage.class);
    }

    JobResponse get(String id) {
        return send(request(JOBS + "/" + segment(id)).GET(), JobResponse.class);
    }

    /** {@code cancel}, {@code pause} or {@code resume}: the job as it is after the request. */
    JobResponse act(String id, String action) {
        return send(request(JOBS + "/" + segment(id) + "/" + action).POST(HttpRequest.BodyPublishers.noBody()), JobResponse.class);
    }

    /** Queues a bench job ({@code POST /api/v1/benches}). */
    RemoteBench.BenchJob submitBench(Object body) {
        return send(request(BENCHES).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body))), RemoteBench.BenchJob.class);
    }

    RemoteBench.BenchJob bench(String id) {
        return send(request(BENCHES + "/" + segment(id)).GET(), RemoteBench.BenchJob.class);
    }

    private HttpRequest.Builder request(String path) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(target.base().resolve(path))
                .timeout(REQUEST_TIMEOUT)
                .header("Accept", "application/json");
        target.token().ifPresent(token -> builder.header("Authorization", "Bearer " + token));
        return builder;
    }

    private <T> T send(HttpRequest.Builder request, Class<T> type) {
        HttpResponse<byte[]> response;
        try {
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        }
        catch (IOException e) {
            throw ServerErrors.unreachable(target.base(), e);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MoverException(ErrorCode.CANCELLED, "interrupted while waiting for the mover server at " + target.base());
        }
        String body = new String(response.body(), StandardCharsets.UTF_8);
        if (response.statusCode() / 100 != 2) {
            throw ServerErrors.of(target.base(), response.statusCode(), body);
        }
        if (type == Void.class) {
            return null;
        }
        try {
            return JSON.readValue(body, type);
        }
        catch (RuntimeException e) {
            throw new MoverException(ErrorCode.INTERNAL, "the mover server at " + target.base() + " sent a reply this mover cannot read: "
                    + e.getClass().getSimpleName() + "; is it a mover server of the same version?", e);
        }
    }

    /** A job id in a path: ids are UUIDs, but whatever the user typed must not change the path. */
    private static String segment(String id) {
        return URLEncoder.encode(id, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
