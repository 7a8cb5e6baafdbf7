package io.mover.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import io.mover.core.engine.CancellationToken;
import io.mover.core.plugin.PluginRegistry;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Transfer mode against a local folder, with the local and gen plugins of the class path. */
@Timeout(120)
class TransferBenchTest {
    @TempDir
    Path temp;

    static BenchReport run(Path scratch, TransferSettings settings) {
        return new TransferBench(PluginRegistry.fromClassPath(), Clock.systemUTC(), scratch).run(settings, BenchProgress.NONE, new CancellationToken());
    }

    private TransferSettings settings(Path target, boolean keep) {
        return new TransferSettings(target.toString(), Map.of(), 30, 64 * 1024, "mixed", List.of(1, 4), 1 << 20, "none", keep, "mover-bench");
    }

    @Test
    void sweepsMeasuresRecommendsAndLeavesNothingBehind() throws IOException {
        Path target = Files.createDirectories(temp.resolve("target"));
        Files.writeString(target.resolve("theirs.txt"), "not mover's");

        BenchReport report = run(temp, settings(target, false));

        assertThat(report.sweep()).extracting(BenchReport.SweepPoint::concurrency).containsExactly(1, 4);
        for (BenchReport.SweepPoint point : report.sweep()) {
            assertThat(point.write().files()).isEqualTo(30);
            assertThat(point.write().bytes()).isEqualTo(30L * 64 * 1024);
            assertThat(point.read().bytes()).isEqualTo(30L * 64 * 1024);
            assertThat(point.write().bytesPerSecond()).isPositive();
            assertThat(point.read().filesPerSecond()).isPositive();
            assertThat(point.stages()).extracting(BenchReport.StageFigure::stage).contains("READ", "WRITE", "COMMIT");
            assertThat(point.bottleneck()).contains("of busy time");
            assertThat(point.latencies()).extracting(BenchReport.Latency::operation)
                    .contains("create", "write", "commit", "file-write", "open", "read", "file-read");
            assertThat(point.latencies()).filteredOn(l -> l.operation().equals("file-write")).singleElement()
                    .satisfies(l -> assertThat(l.count()).isEqualTo(30)).satisfies(l -> assertThat(l.p99Micros()).isGreaterThanOrEqualTo(l.p50Micros()));
        }
        assertThat(report.recommendation().options()).startsWith("--concurrency ");
        assertThat(List.of(1, 4)).contains(report.recommendation().concurrency());
        assertThat(report.recommendation().bottleneck()).isNotBlank();
        assertThat(names(target)).containsExactly("theirs.txt");
    }

    @Test
    void keepLeavesTheFilesAndTheMarkerAndALaterRunLeavesThemAlone() throws IOException {
        Path target = Files.createDirectories(temp.resolve("target"));
        BenchReport kept = run(temp, settings(target, true));
        assertThat(kept.notes()).anyMatch(note -> note.contains("kept in"));
        long files = countFiles(target.resolve("mover-bench"));
        assertThat(files).isEqualTo(2 * 30 + 1);

        run(temp, settings(target, false));

        assertThat(countFiles(target.resolve("mover-bench"))).as("the first run's files and the marker").isEqualTo(files);
        assertThat(target.resolve("mover-bench").resolve(BenchFolder.MARKER)).exists();
    }

    @Test
    void aBenchFolderThatIsNotMoversIsRefusedAndUntouched() throws IOException {
        Path target = Files.createDirectories(temp.resolve("target"));
        Path foreign = Files.createDirectories(target.resolve("mover-bench"));
        Files.writeString(foreign.resolve("data.csv"), "1,2,3");

        assertThatThrownBy(() -> run(temp, settings(target, false))).isInstanceOfSatisfying(MoverException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.ALREADY_EXISTS);
            assertThat(e.getMessage()).contains("is not mover's", "--folder");
        });
        assertThat(names(foreign)).containsExactly("data.csv");
    }

    @Test
    void moreThanTheFreeSpaceIsRefusedBeforeWriting() throws IOException {
        Path target = Files.createDirectories(temp.resolve("target"));
        TransferSettings huge = new TransferSettings(target.toString(), Map.of(), 1_000_000, 1L << 40, "zeros", List.of(1), 1 << 20, "none",
                false, "mover-bench");

        assertThatThrownBy(() -> run(temp, huge)).isInstanceOfSatisfying(MoverException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.NO_SPACE);
            assertThat(e.getMessage()).contains("free; nothing was written", "--files or --size");
        });
        assertThat(names(target)).isEmpty();
    }

    @Test
    void aTargetThatCannotBeWrittenIsSaidSo() throws IOException {
        Path file = Files.writeString(temp.resolve("a-file"), "x");

        assertThatThrownBy(() -> run(temp, settings(file.resolve("below"), false))).isInstanceOf(MoverException.class)
                .hasMessageContaining("is not writable").hasMessageContaining("choose a folder you can write to");
    }

    @Test
    void badSettingsNameTheOption() {
        assertThatThrownBy(() -> new TransferSettings("/x", Map.of(), 0, 1, "random", List.of(1), 1 << 20, "none", false, "f"))
                .hasMessageContaining("--files");
        assertThatThrownBy(() -> new TransferSettings("/x", Map.of(), 1, 1, "random", List.of(0), 1 << 20, "none", false, "f"))
                .hasMessageContaining("--concurrency");
        assertThatThrownBy(() -> new TransferSettings("/x", Map.of(), 1, 1, "noise", List.of(1), 1 << 20, "none", false, "f"))
                .hasMessageContaining("--data");
        assertThatThrownBy(() -> new TransferSettings("/x", Map.of(), 1, 1, "random", List.of(1), 1 << 20, "none", false, "../up"))
                .hasMessageContaining("--folder");
    }

    static List<String> names(Path directory) throws IOException {
        try (Stream<Path> entries = Files.list(directory)) {
            return entries.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private static long countFiles(Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(Files::isRegularFile).count();
        }
    }
}
