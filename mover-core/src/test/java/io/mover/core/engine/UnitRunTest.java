package io.mover.core.engine;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.mover.core.plugin.PluginRegistry;
import io.mover.spi.Entry;
import io.mover.spi.RelativePath;

import static org.assertj.core.api.Assertions.assertThat;

@Timeout(60)
class UnitRunTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    @TempDir
    Path scratch;

    private final MemoryPlugin plugin = new MemoryPlugin();
    private final TransferEngine engine = new TransferEngine(PluginRegistry.of(List.of(plugin), "test"), Clock.systemUTC());
    private final MemoryStore src = plugin.store("src");
    private final MemoryStore dst = plugin.store("dst");
    private final List<FileReport> reports = new CopyOnWriteArrayList<>();

    private static TransferOptions options() {
        return TransferOptions.builder().blockSize(4096).bufferPoolBytes(1 << 20).retries(0, Duration.ofMillis(1)).build();
    }

    private Entry entry(String path) {
        return src.stat(RelativePath.of(path)).orElseThrow();
    }

    @Test
    void runsTheGivenEntriesOnlyAndReportsEachFile() {
        src.file("a.txt", "hello".getBytes(), T0);
        src.file("d1/b.bin", new byte[10_000], T0);
        src.file("d1/c.bin", "c".getBytes(), T0);
        src.dir("empty", T0);
        PreparedJob job = engine.prepare(JobSpec.copy("mem://src", "mem://dst", options()), "job1", scratch);
        try (job) {
            List<Entry> manifest = List.of(entry("d1"), entry("d1/b.bin"), entry("empty"), entry("a.txt"));
            JobSummary summary = engine.unit(job, manifest, reports::add, new CancellationToken(), JobControls.of(options()), () -> false).run();

            assertThat(summary.filesTransferred()).isEqualTo(2);
            assertThat(reports).extracting(FileReport::path).containsExactlyInAnyOrder("d1/b.bin", "a.txt");
            assertThat(reports).allMatch(r -> r.outcome() == FileReport.Outcome.TRANSFERRED);
            assertThat(dst.data("d1/b.bin")).isEqualTo(src.data("d1/b.bin"));
            assertThat(dst.stat(RelativePath.of("empty"))).isPresent();
            assertThat(dst.stat(RelativePath.of("d1/c.bin"))).isEmpty();
        }
    }

    @Test
    void onlyFoldersThatExistedAreSearchedForStaleTemporaries() {
        src.file("new/a", new byte[1], T0);
        src.file("old/b", new byte[1], T0);
        dst.dir("old", T0);
        PreparedJob job = engine.prepare(JobSpec.copy("mem://src", "mem://dst", options()), "job1", scratch);
        try (job) {
            engine.unit(job, List.of(entry("new/a"), entry("old/b")), reports::add, new CancellationToken(), JobControls.of(options()), () -> false).run();
            // the unit created "new": no temporaries of an earlier attempt can be in it, so it is not listed
            assertThat(dst.cleaned).containsExactly(RelativePath.of("old"));
        }
    }

    @Test
    void aStopAskedForStartsNoFurtherFile() {
        for (int i = 0; i < 5; i++) {
            src.file("f" + i, new byte[] {(byte) i}, T0);
        }
        PreparedJob job = engine.prepare(JobSpec.copy("mem://src", "mem://dst", options()), "job1", scratch);
        try (job) {
            List<Entry> manifest = List.of(entry("f0"), entry("f1"), entry("f2"), entry("f3"), entry("f4"));
            // stop once two files have reported: the run ends at a file boundary, each started file reported once
            UnitRun unit = engine.unit(job, manifest, reports::add, new CancellationToken(), JobControls.of(options().toBuilder().concurrency(1).build()),
                    () -> reports.size() >= 2);
            unit.run();

            assertThat(reports.size()).isBetween(2, 3);
            assertThat(reports).extracting(FileReport::path).doesNotHaveDuplicates();
            assertThat(unit.cutShort()).as("files were left unstarted").isTrue();
        }
    }

    @Test
    void aStopAskedForOnceEveryFileHasStartedDoesNotCutTheUnitShort() {
        src.file("only", new byte[] {1}, T0);
        PreparedJob job = engine.prepare(JobSpec.copy("mem://src", "mem://dst", options()), "job1", scratch);
        try (job) {
            // asked to stop as soon as the one file has reported: nothing was left to start
            UnitRun unit = engine.unit(job, List.of(entry("only")), reports::add, new CancellationToken(), JobControls.of(options()), () -> !reports.isEmpty());
            unit.run();

            assertThat(reports).hasSize(1);
            assertThat(unit.cutShort()).isFalse();
        }
    }
}
