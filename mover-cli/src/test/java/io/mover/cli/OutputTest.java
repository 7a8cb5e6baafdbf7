package io.mover.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import io.mover.core.engine.Bottleneck;
import io.mover.core.engine.FileFailure;
import io.mover.core.engine.JobState;
import io.mover.core.engine.JobSummary;
import io.mover.core.engine.Progress;
import io.mover.core.engine.Stage;
import io.mover.core.engine.StageStats;
import io.mover.spi.ErrorCode;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

class OutputTest {
    private static final Bottleneck WRITE = new Bottleneck(Stage.WRITE, 0.71, "WRITE: 71% of busy time, the destination is the limit");

    @Test
    void statusLineSaysWhereTheJobIs() {
        Progress progress = new Progress(Instant.EPOCH, JobState.RUNNING, false, 150, 100, 5, 2, 4L << 30, 1L << 30, 200 * 1024 * 1024,
                Duration.ofSeconds(5), Optional.of(Duration.ofSeconds(15)), List.of(), Optional.of(WRITE));

        assertThat(StatusLineOutput.line(progress))
                .isEqualTo(" 25.0 %, 100 done, 5 skipped, 2 failed, 43 pending, 150 total, 1.0 GiB of 4.0 GiB, 200.0 MiB/s, ETA 15.0s, bottleneck WRITE");
    }

    @Test
    void statusLineSaysWhatCarriesTheBlocksOverALinkButNotNoneOnALocalCopy() {
        String auto = "auto (blocks: zstd:1 94%, lz4 6%; 2 switches; last choice zstd:1: 0.41 of the bytes)";
        Progress overALink = progress(Optional.of(auto));
        Progress local = progress(Optional.of("none"));

        assertThat(StatusLineOutput.line(overALink)).endsWith(", bottleneck WRITE, codec " + auto);
        assertThat(StatusLineOutput.line(local)).endsWith(", bottleneck WRITE");
        assertThat(JsonEvents.ProgressEvent.of(overALink).codec()).contains(auto);
    }

    private static Progress progress(Optional<String> codec) {
        return new Progress(Instant.EPOCH, JobState.RUNNING, false, 1, 0, 0, 0, 10, 5, 5.0, Duration.ofSeconds(1), Optional.empty(), List.of(),
                Optional.of(WRITE), Optional.empty(), Optional.empty(), codec);
    }

    @Test
    void textSummaryShowsStagesBottleneckAndFailures() {
        StringWriter text = new StringWriter();
        StatusLineOutput output = new StatusLineOutput(new PrintWriter(text), false);

        output.finished(summary());

        assertThat(text.toString())
                .contains("Job completed with errors in 10.0s")
                .contains("Files:       20 scanned, 5 transferred, 0 skipped, 15 failed")
                .contains("Bottleneck:  WRITE: 71% of busy time, the destination is the limit")
                .contains("Failures:    15 (first 10):")
                .contains("  f0: IO_ERROR disk hiccup (4 attempts)")
                .contains("  ... and 5 more")
                .containsPattern("WRITE\\s+1.0 GiB\\s+1024\\s+512.0 MiB/s\\s+2.0s")
                .contains("Plugins:     destination.azure-files.throttle-wait-ms 3400")
                .contains("             destination.azure-files.throttled-503 12")
                .doesNotContain("throttled-429");
    }

    @Test
    void jsonSummaryCarriesEveryField() {
        StringWriter text = new StringWriter();
        JsonOutput output = new JsonOutput(new PrintWriter(text));

        output.finished(summary());

        JsonNode json = JsonOutput.MAPPER.readTree(text.toString());
        assertThat(json.get("type").asString()).isEqualTo("summary");
        assertThat(json.get("exitCode").asInt()).isEqualTo(2);
        assertThat(json.get("bottleneck").get("stage").asString()).isEqualTo("WRITE");
        assertThat(json.get("failures")).hasSize(15);
        assertThat(json.get("error").isNull()).isTrue();
        assertThat(json.get("stages").get(0).get("busySeconds").asDouble()).isEqualTo(2.0);
        assertThat(json.get("pluginCounters").get("destination.azure-files.throttled-503").asLong()).isEqualTo(12);
        assertThat(json.get("pluginCounters").get("destination.azure-files.throttled-429").asLong()).isZero();
    }

    private static JobSummary summary() {
        List<FileFailure> failures = java.util.stream.IntStream.range(0, 15)
                .mapToObj(i -> new FileFailure("f" + i, ErrorCode.IO_ERROR, "disk hiccup", 4)).toList();
        StageStats write = new StageStats(Stage.WRITE, 1L << 30, 1024, Duration.ofSeconds(2), Duration.ZERO, 0.71);
        return new JobSummary(JobState.COMPLETED_WITH_ERRORS, Instant.EPOCH, Duration.ofSeconds(10), 20, 5, 0, 15, 3, 1L << 30, 2L << 30,
                45, "none", List.of(write), Optional.of(WRITE), failures, Optional.empty(), Optional.empty(), Optional.empty(),
                java.util.Map.of("destination.azure-files.throttled-503", 12L, "destination.azure-files.throttled-429", 0L,
                        "destination.azure-files.throttle-wait-ms", 3400L));
    }
}
