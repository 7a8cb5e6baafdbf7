package io.mover.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/** The JSON report carries what the text one shows, under stable names. */
@Timeout(120)
class JsonReportTest {
    @TempDir
    Path temp;

    @Test
    void aTransferReportAsJson() throws Exception {
        Path target = Files.createDirectories(temp.resolve("target"));
        BenchReport report = TransferBenchTest.run(temp, new TransferSettings(target.toString(), Map.of(), 10, 4096, "text", List.of(2),
                1 << 20, "none", false, "mover-bench"));

        JsonNode json = JsonMapper.builder().build().readTree(JsonReport.of(report));

        assertThat(json.get("mode").asString()).isEqualTo("transfer");
        JsonNode point = json.get("sweep").get(0);
        assertThat(point.get("concurrency").asInt()).isEqualTo(2);
        assertThat(point.get("write").get("files").asLong()).isEqualTo(10);
        assertThat(point.get("write").get("bytesPerSecond").asDouble()).isPositive();
        assertThat(point.get("latencies").findValuesAsString("operation")).contains("create", "commit", "read");
        assertThat(point.get("latencies").get(0).has("p999Micros")).isTrue();
        assertThat(json.get("recommendation").get("options").asString()).isEqualTo("--concurrency 2");
        assertThat(json.get("io").isArray()).isTrue();
    }

    @Test
    void anIoPointCarriesItsCpuTimeAndAnOlderReportWithoutItStillParses() {
        BenchReport.Latency latency = new BenchReport.Latency("rand-read", 10, 1, 1, 2, 3, 4, 5);
        BenchReport report = new BenchReport("io", "/t", "2026-11-27T00:00:00Z", "s", List.of(), null,
                List.of(new BenchReport.IoPoint("rand-read", 8192, 8, 10, 1, 0.08, 10, 0.25, latency)), List.of(), List.of());

        String json = JsonReport.of(report);
        BenchReport older = JsonReport.parse(json.replace("\"cpuSeconds\" : 0.25,", ""));

        assertThat(json).contains("\"cpuSeconds\" : 0.25");
        assertThat(JsonReport.parse(json).io().getFirst().cpuSeconds()).isEqualTo(0.25);
        assertThat(older.io().getFirst().cpuSeconds()).isNull();
        assertThat(older.io().getFirst().iops()).isEqualTo(10);
    }
}
