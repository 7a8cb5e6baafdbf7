package io.mover.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.mover.core.engine.JobState;
import io.mover.core.engine.JobSummary;
import io.mover.core.engine.OverwritePolicy;
import io.mover.core.engine.Progress;
import io.mover.core.engine.Stage;
import io.mover.core.engine.TransferOptions;
import io.mover.server.job.web.JobResponse;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The REST JSON read back into the engine's records, the submit body, and the server URL rules. */
class RestRecordsTest {
    private static final Instant T0 = Instant.parse("2026-11-23T09:16:28Z");

    @Test
    void aFailedJobKeepsItsErrorCodeSoTheExitCodeIsTheStandaloneOne() {
        String json = """
                {"id":"x","state":"FAILED","created":"2026-11-23T09:16:28Z",
                 "stages":[{"stage":"WRITE","bytes":1000,"operations":2,"busySeconds":0.5,"waitingSeconds":0.1,"shareOfBusy":0.9,"bytesPerSecond":2000.0},
                           {"stage":"TELEPORT","bytes":1,"operations":1,"busySeconds":0.1,"waitingSeconds":0,"shareOfBusy":0.1,"bytesPerSecond":1}],
                 "bottleneck":{"stage":"WRITE","shareOfBusy":0.9,"explanation":"WRITE: 90% of busy time"},
                 "result":{"started":"2026-11-23T09:16:29Z","elapsedSeconds":1.5,"filesScanned":3,"filesTransferred":1,"filesSkipped":0,
                           "filesFailed":1,"directoriesCreated":1,"bytesTransferred":1000,"bytesScanned":3000,"retries":2,"codec":"lz4","bytesPerSecond":666.7},
                 "errors":{"filesFailed":1,"error":"no space left on /dst","code":"NO_SPACE",
                           "failures":[{"path":"a/b","code":"NO_SPACE","message":"disk full","attempts":1}]}}
                """;
        JobSummary summary = RestRecords.summary(job(json));

        assertThat(summary.state()).isEqualTo(JobState.FAILED);
        assertThat(summary.errorCode()).contains(ErrorCode.NO_SPACE);
        assertThat(ExitCode.of(summary)).isEqualTo(ExitCode.DESTINATION);
        assertThat(summary.elapsed()).isEqualTo(Duration.ofMillis(1500));
        assertThat(summary.stages()).singleElement().satisfies(s -> {
            assertThat(s.stage()).isEqualTo(Stage.WRITE);
            assertThat(s.busy()).isEqualTo(Duration.ofMillis(500));
        });
        assertThat(summary.bottleneck()).hasValueSatisfying(b -> assertThat(b.explanation()).startsWith("WRITE: 90%"));
        assertThat(summary.failures()).singleElement().satisfies(f -> assertThat(f.code()).isEqualTo(ErrorCode.NO_SPACE));
        assertThat(summary.codec()).isEqualTo("lz4");
        assertThat(summary.concurrency()).isEmpty(); // a server that does not say where its concurrency came from
    }

    @Test
    void theSummarySaysTheConcurrencyTheServerChose() {
        String json = """
                {"id":"x","state":"SUCCEEDED","created":"2026-11-23T09:16:28Z",
                 "settings":{"concurrency":64,"bandwidthCapBytesPerSecond":0,"pauseRequested":false,"concurrencyOrigin":"chosen by azure-files"},
                 "result":{"started":"2026-11-23T09:16:29Z","elapsedSeconds":1.5,"filesScanned":3,"filesTransferred":3,"filesSkipped":0,
                           "filesFailed":0,"directoriesCreated":1,"bytesTransferred":1000,"bytesScanned":1000,"retries":0,"codec":"none","bytesPerSecond":666.7}}
                """;

        assertThat(RestRecords.summary(job(json)).concurrency()).isEqualTo("64 (chosen by azure-files)");
    }

    @Test
    void aJobCancelledBeforeItStartedHasZeros() {
        // read from JSON, never built with the constructor: the server's records gain members over time
        JobResponse job = job("{\"id\":\"x\",\"state\":\"CANCELLED\",\"created\":\"2026-11-23T09:16:28Z\",\"stages\":[]}");

        JobSummary summary = RestRecords.summary(job);

        assertThat(ExitCode.of(summary)).isEqualTo(ExitCode.CANCELLED);
        assertThat(summary.filesScanned()).isZero();
        assertThat(summary.started()).isEqualTo(T0);
    }

    @Test
    void progressTakesItsEtaAndTheLastKnownBottleneck() {
        JobResponse.ProgressResponse p = ServerClient.JSON.readValue("""
                {"at":"2026-11-23T09:16:28Z","state":"RUNNING","enumerating":true,"filesScanned":10,"filesDone":4,"filesSkipped":1,
                 "filesFailed":0,"filesPending":5,"bytesTotal":1000,"bytesDone":400,"percent":40.0,"bytesPerSecond":123.0,
                 "elapsedSeconds":2.5,"etaSeconds":3.0}
                """, JobResponse.ProgressResponse.class);
        JobResponse job = job("""
                {"id":"x","state":"RUNNING","created":"2026-11-23T09:16:28Z","stages":[],
                 "bottleneck":{"stage":"READ","shareOfBusy":0.7,"explanation":"READ: 70% of busy time"}}
                """);

        Progress progress = RestRecords.progress(p, job);

        assertThat(progress.eta()).contains(Duration.ofSeconds(3));
        assertThat(progress.filesPending()).isEqualTo(5);
        assertThat(StatusLineOutput.line(progress)).contains("(scanning)", "ETA 3.0s", "bottleneck READ");
        assertThat(RestRecords.progress(p, null).bottleneck()).isEmpty();
    }

    private static JobResponse job(String json) {
        return ServerClient.JSON.readValue(json, JobResponse.class);
    }

    @Test
    void theSubmitBodyCarriesEveryOptionAndAbsolutePaths() {
        TransferOptions options = TransferOptions.defaults().toBuilder().concurrency(4).blockSize(65536).includes(List.of("*.log"))
                .excludes(List.of("tmp/**")).overwrite(OverwritePolicy.parse("if-source-newer")).codec("lz4").verify(true)
                .retries(5, Duration.ofMillis(300)).build();

        RemoteCopy.SubmitBody body = RemoteCopy.SubmitBody.copy("in", "s3://bucket/x", options, Map.of("k", "v"), Map.of());

        assertThat(body.kind()).isEqualTo("copy");
        assertThat(body.source()).isEqualTo(Path.of("in").toAbsolutePath().toString());
        assertThat(body.destination()).isEqualTo("s3://bucket/x");
        assertThat(body.options()).containsEntry("concurrency", 4).containsEntry("blockSize", "65536").containsEntry("include", List.of("*.log"))
                .containsEntry("exclude", List.of("tmp/**")).containsEntry("overwrite", "if-source-newer").containsEntry("symlinks", "skip")
                .containsEntry("codec", "lz4").containsEntry("verify", true).containsEntry("dryRun", false).containsEntry("retries", 5)
                .containsEntry("retryBackoff", "300ms");
        assertThat(body.sourceConfig()).containsEntry("k", "v");
    }

    @Test
    void serverUrlsAreHttpWithAHost() {
        assertThat(ServerOptions.parse("http://127.0.0.1:8080/api/v1/").toString()).isEqualTo("http://127.0.0.1:8080");
        assertThat(ServerOptions.parse("https://mover.example").toString()).isEqualTo("https://mover.example");
        for (String bad : List.of("127.0.0.1:8080", "ftp://host", "http://", "http://user:pw@host")) {
            assertThatThrownBy(() -> ServerOptions.parse(bad)).as(bad).isInstanceOf(MoverException.class).hasMessageContaining("invalid server URL");
        }
    }

    @Test
    void theTargetNeverPrintsItsToken() {
        ServerOptions.ServerTarget target = new ServerOptions.ServerTarget(ServerOptions.parse("http://h:1"), java.util.Optional.of("s3cr3t-token"));

        assertThat(target.toString()).doesNotContain("s3cr3t").contains("with a token");
    }
}
