package io.mover.server;

import java.nio.file.Files;
import java.nio.file.Path;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.mover.server.job.web.JobPage;
import io.mover.server.job.web.JobResponse;
import io.mover.server.schedule.web.ScheduleResponse;
import org.junit.jupiter.api.Test;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpStatus;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.http.MediaType;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code /api/v1/schedules} over HTTP: a schedule fires a sync at once (an interval), its job carries its id, its RPO is a gauge. */
class ScheduleApiIntegrationTest extends ServerTestSupport {
    private static final MediaType MERGE_PATCH = MediaType.parseMediaType("application/merge-patch+json");

    private WebTestClientSpec create(Object body) {
        return new WebTestClientSpec(client.post().uri("/api/v1/schedules").contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange());
    }

    private record WebTestClientSpec(org.springframework.test.web.reactive.server.WebTestClient.ResponseSpec response) {
    }

    @Test
    void aScheduleRunsSyncsThatCarryItsIdAndReportsItsRpo() throws Exception {
        Path source = tree(temp.resolve("src"));
        Path destination = temp.resolve("dst");
        String name = "replica-" + temp.getFileName().toString().replaceAll("[^A-Za-z0-9]", "").toLowerCase();
        ScheduleResponse created = create(Map.of("name", name, "interval", "1h", "rpoTarget", "2h", "overlap", "queue-one",
                "template", Map.of("source", source.toString(), "destination", destination.toString(), "destinationCredential", "durable",
                        "options", Map.of("sync", Map.of("deleteDestination", "true")))))
                .response().expectStatus().isCreated().expectHeader().valueMatches("Location", "/api/v1/schedules/[0-9a-f-]{36}")
                .expectBody(ScheduleResponse.class).returnResult().getResponseBody();
        assertThat(created).isNotNull();
        assertThat(created.interval()).isEqualTo("PT1H");
        assertThat(created.overlap()).isEqualTo("queue-one");
        assertThat(created.template().kind()).isEqualTo("sync");
        assertThat(created.template().destinationCredential()).isEqualTo("durable");

        JobPage runs = awaitRuns(created.id());
        JobResponse job = awaitEnd(runs.items().getFirst().id());
        assertThat(job.state()).isEqualTo("SUCCEEDED");
        assertThat(job.scheduleId()).isEqualTo(created.id());
        assertThat(hashes(destination)).isEqualTo(hashes(source));

        ScheduleResponse shown = client.get().uri("/api/v1/schedules/{name}", name).exchange().expectStatus().isOk()
                .expectBody(ScheduleResponse.class).returnResult().getResponseBody();
        assertThat(shown).isNotNull();
        assertThat(shown.lastSuccess().jobId()).isEqualTo(job.id());
        assertThat(shown.rpo().state()).isEqualTo("RPO_MET");
        assertThat(shown.rpo().targetSeconds()).isEqualTo(7200.0);
        assertThat(shown.rpo().achievedSeconds()).isBetween(0.0, 120.0);
        assertThat(shown.nextRun()).isAfter(shown.created().plusSeconds(3000));
        assertThat(shown.runs().fired()).isEqualTo(1);

        String metrics = as(READ_TOKEN).get().uri("/actuator/prometheus").exchange().expectStatus().isOk()
                .expectBody(String.class).returnResult().getResponseBody();
        assertThat(metrics).contains("mover_schedule_rpo_seconds{schedule=\"" + name + "\",schedule_id=\"" + created.id() + "\"}")
                .contains("mover_schedule_rpo_target_seconds{schedule=\"" + name + "\",schedule_id=\"" + created.id() + "\"} 7200.0");

        ScheduleResponse.EventPage events = client.get().uri("/api/v1/schedules/{id}/events", created.id()).exchange().expectStatus().isOk()
                .expectBody(ScheduleResponse.EventPage.class).returnResult().getResponseBody();
        assertThat(events).isNotNull();
        assertThat(events.items()).extracting(ScheduleResponse.EventResponse::kind).startsWith("CREATED", "FIRED");

        List<ServerSentEvent<String>> stream = client.get().uri("/api/v1/schedules/{id}/events", created.id()).accept(MediaType.TEXT_EVENT_STREAM)
                .exchange().expectStatus().isOk().returnResult(new ParameterizedTypeReference<ServerSentEvent<String>>() {}).getResponseBody()
                .filter(event -> event.event() != null).take(2).collectList().block(Duration.ofSeconds(30));
        assertThat(stream).extracting(ServerSentEvent::event).containsExactly("CREATED", "FIRED");
        assertThat(stream.get(1).data()).contains(job.id());

        ScheduleResponse patched = client.patch().uri("/api/v1/schedules/{id}", created.id()).contentType(MERGE_PATCH)
                .bodyValue(Map.of("cron", "0 3 * * *", "timeZone", "Europe/Paris", "rpoTarget", "none")).exchange().expectStatus().isOk()
                .expectBody(ScheduleResponse.class).returnResult().getResponseBody();
        assertThat(patched).isNotNull();
        assertThat(patched.cron()).isEqualTo("0 3 * * *");
        assertThat(patched.interval()).isNull();
        assertThat(patched.rpo().state()).isEqualTo("NO_TARGET");
        ScheduleResponse paused = client.post().uri("/api/v1/schedules/{id}/pause", name).exchange().expectStatus().isOk()
                .expectBody(ScheduleResponse.class).returnResult().getResponseBody();
        assertThat(paused).isNotNull();
        assertThat(paused.paused()).isTrue();
        assertThat(paused.nextRun()).isNull();

        client.delete().uri("/api/v1/schedules/{id}", created.id()).exchange().expectStatus().isNoContent().expectBody(Void.class);
        problem(client.get().uri("/api/v1/schedules/{id}", created.id()).exchange(), HttpStatus.NOT_FOUND, "schedule-not-found");
        assertThat(client.get().uri("/api/v1/jobs?schedule={id}", created.id()).exchange().expectStatus().isOk().expectBody(JobPage.class)
                .returnResult().getResponseBody().items()).as("its jobs stay").hasSize(1);
        assertThat(as(READ_TOKEN).get().uri("/actuator/prometheus").exchange().expectBody(String.class).returnResult().getResponseBody())
                .doesNotContain(created.id());
    }

    @Test
    void badSchedulesAreProblemsNamingTheField() throws Exception {
        Path source = Files.createDirectories(temp.resolve("src"));
        Map<String, Object> template = Map.of("source", source.toString(), "destination", temp.resolve("dst").toString());
        assertField(Map.of("name", "a", "cron", "*/15 * * *", "template", template), "cron");
        assertField(Map.of("name", "a", "interval", "soon", "template", template), "interval");
        assertField(Map.of("name", "a", "interval", "1h"), "template");
        assertField(Map.of("name", "a", "interval", "1h", "timeZone", "Mars/Olympus", "template", template), "timeZone");
        assertField(Map.of("name", "a", "interval", "1h", "overlap", "later", "template", template), "overlap");
        assertField(Map.of("name", "a", "interval", "1h", "template", Map.of("source", "nope://x", "destination", temp.toString())),
                "template.source");
        assertField(Map.of("name", "a", "interval", "1h", "template", Map.of("kind", "copy", "source", source.toString(),
                "destination", temp.toString())), "template.kind");
        assertField(Map.of("name", "a", "interval", "1h", "template", Map.of("source", source.toString())), "template.destination");
        assertField(Map.of("name", "a", "interval", "1h", "template", Map.of("source", temp.resolve("absent").toString(),
                "destination", temp.toString())), "template");
    }

    private void assertField(Map<String, Object> body, String field) {
        problem(create(body).response(), HttpStatus.BAD_REQUEST, "invalid-request").jsonPath("$.errors[0].field").isEqualTo(field);
    }

    private JobPage awaitRuns(String scheduleId) throws InterruptedException {
        for (int attempt = 0; attempt < 300; attempt++) {
            JobPage page = client.get().uri("/api/v1/jobs?schedule={id}", scheduleId).exchange().expectStatus().isOk()
                    .expectBody(JobPage.class).returnResult().getResponseBody();
            if (page != null && !page.items().isEmpty()) {
                assertThat(page.items()).hasSize(1);
                return page;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the schedule started no job in 30 s");
    }

}
