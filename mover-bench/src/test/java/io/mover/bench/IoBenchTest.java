package io.mover.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.mover.core.engine.CancellationToken;
import io.mover.core.plugin.PluginRegistry;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** IO mode on a local folder, briefly: every corner at every depth, the block-size sweep, nothing left behind. */
@Timeout(120)
class IoBenchTest {
    @TempDir
    Path temp;

    static BenchReport run(Path scratch, Path target) {
        IoSettings settings = new IoSettings(target.toString(), Map.of(), 8L << 20, List.of(1, 4), List.of(65536L, 1L << 20),
                Duration.ofMillis(60), false, "mover-bench");
        return new IoBench(PluginRegistry.fromClassPath(), Clock.systemUTC(), scratch).run(settings, BenchProgress.NONE, new CancellationToken());
    }

    @Test
    void measuresTheFourCornersAndTheBlockSizes() throws IOException {
        Path target = Files.createDirectories(temp.resolve("target"));

        BenchReport report = run(temp, target);

        assertThat(report.io()).extracting(p -> p.pattern() + "@" + p.queueDepth() + "/" + p.blockSize()).containsExactly(
                "seq-read@1/65536", "seq-read@4/65536", "seq-write@1/65536", "seq-write@4/65536",
                "rand-read@1/8192", "rand-read@4/8192", "rand-write@1/8192", "rand-write@4/8192");
        for (BenchReport.IoPoint point : report.io()) {
            assertThat(point.operations()).as(point.toString()).isGreaterThanOrEqualTo(point.queueDepth());
            assertThat(point.iops()).isPositive();
            assertThat(point.mibPerSecond()).isCloseTo(point.iops() * point.blockSize() / (1 << 20), org.assertj.core.data.Percentage.withPercentage(0.1));
            assertThat(point.latency().count()).isEqualTo(point.operations());
            assertThat(point.latency().p99Micros()).isGreaterThanOrEqualTo(point.latency().p50Micros());
            // each worker's CPU time is at most its wall time (plus the clocks' granularity)
            assertThat(point.cpuSeconds()).as(point.toString()).isPositive().isLessThanOrEqualTo(point.seconds() * point.queueDepth() + 0.05);
        }
        assertThat(report.blockSizes()).extracting(BenchReport.IoPoint::blockSize).containsExactly(65536, 1 << 20);
        assertThat(TransferBenchTest.names(target)).isEmpty();
    }

    @Test
    void aFileTooSmallForTheDeepestQueueIsRefused() {
        assertThatThrownBy(() -> new IoSettings("/x", Map.of(), 1 << 20, List.of(64), List.of(65536L), Duration.ofSeconds(1), false, "f"))
                .hasMessageContaining("--io-size");
    }
}
