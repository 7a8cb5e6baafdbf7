package io.mover.core.engine;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.mover.core.plugin.PluginRegistry;
import io.mover.spi.EntryType;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.RelativePath;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Timeout(60)
class TransferEngineTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    @TempDir
    Path scratch;

    private final MemoryPlugin plugin = new MemoryPlugin();
    private final TransferEngine engine = new TransferEngine(PluginRegistry.of(List.of(plugin), "test"), Clock.systemUTC());
    private final MemoryStore src = plugin.store("src");
    private final MemoryStore dst = plugin.store("dst");

    private static byte[] random(int size, long seed) {
        byte[] data = new byte[size];
        new Random(seed).nextBytes(data);
        return data;
    }

    private JobSummary copy(TransferOptions options) {
        return copy(options, JobListener.NONE, new CancellationToken());
    }

    private JobSummary copy(TransferOptions options, JobListener listener, CancellationToken token) {
        PreparedJob job = engine.prepare(JobSpec.copy("mem://src", "mem://dst", options), "job1", scratch);
        try {
            return engine.run(job, listener, token);
        }
        finally {
            job.close();
        }
    }

    private static TransferOptions.Builder options() {
        return TransferOptions.builder().blockSize(4096).largeFiles(64 * 1024, 16 * 1024).bufferPoolBytes(1 << 20)
                .retries(3, Duration.ofMillis(1)).progressInterval(Duration.ofMillis(20));
    }

    @Test
    void copiesATreeByteForByteWithMtimesAndEmptyDirectories() {
        src.file("a.txt", "hello".getBytes(), T0);
        src.file("d1/empty.bin", new byte[0], T0.plusSeconds(1));
        src.file("d1/d2/big.bin", random(300_000, 1), T0.plusSeconds(2)); // ranges of a large file
        src.file("d1/d2/block-edge.bin", random(8192, 2), T0.plusSeconds(3));
        src.dir("empty-dir", T0.plusSeconds(4));
        src.dir("d1", T0.plusSeconds(5));

        JobSummary summary = copy(options().build());

        assertThat(summary.state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(summary.filesScanned()).isEqualTo(4);
        assertThat(summary.filesTransferred()).isEqualTo(4);
        assertThat(summary.bytesTransferred()).isEqualTo(5 + 300_000 + 8192);
        for (String path : List.of("a.txt", "d1/empty.bin", "d1/d2/big.bin", "d1/d2/block-edge.bin")) {
            assertThat(dst.data(path)).as(path).isEqualTo(src.data(path));
            assertThat(dst.nodes.get(RelativePath.of(path)).mtime()).isEqualTo(src.nodes.get(RelativePath.of(path)).mtime());
        }
        assertThat(dst.nodes.get(RelativePath.of("empty-dir")).type()).isEqualTo(EntryType.DIRECTORY);
        assertThat(dst.nodes.get(RelativePath.of("empty-dir")).mtime()).isEqualTo(T0.plusSeconds(4));
        assertThat(dst.nodes.get(RelativePath.of("d1")).mtime()).as("folder mtime set after its contents").isEqualTo(T0.plusSeconds(5));
        assertThat(dst.temporaries).isEmpty();
        assertThat(summary.stages()).extracting(StageStats::stage).contains(Stage.READ, Stage.WRITE, Stage.COMMIT);
        assertThat(summary.bottleneck()).isPresent();
    }

    @Test
    void blocksGoThroughTheCodecAndEveryStageIsMetered() {
        byte[] text = "mover moves bytes, and measures every stage of the way\n".repeat(5000).getBytes();
        src.file("log.txt", text, T0);
        src.file("noise.bin", random(100_000, 11), T0);

        JobSummary summary = copy(options().codec("test-deflate:1").build());

        assertThat(summary.state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(dst.data("log.txt")).isEqualTo(text);
        assertThat(dst.data("noise.bin")).isEqualTo(src.data("noise.bin"));
        assertThat(summary.codec()).contains("test-deflate");
        for (Stage stage : List.of(Stage.READ, Stage.ENCODE, Stage.SEND, Stage.DECODE, Stage.WRITE)) {
            StageStats stats = summary.stages().stream().filter(s -> s.stage() == stage).findFirst().orElseThrow();
            assertThat(stats.operations()).as(stage.name()).isPositive();
            assertThat(stats.bytes()).as(stage.name()).isPositive();
        }
        StageStats send = summary.stages().stream().filter(s -> s.stage() == Stage.SEND).findFirst().orElseThrow();
        assertThat(send.bytes()).as("compressed text crosses the link smaller").isLessThan(text.length + 100_000L);
    }

    @Test
    void retriesRetryableErrorsAndCountsThem() {
        src.file("flaky.bin", random(10_000, 3), T0);
        src.readFaults.put("flaky.bin", new AtomicInteger(2));

        JobSummary summary = copy(options().build());

        assertThat(summary.state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(summary.retries()).isEqualTo(2);
        assertThat(dst.data("flaky.bin")).isEqualTo(src.data("flaky.bin"));
    }

    @Test
    void oneFailedFileDoesNotStopTheOthers() {
        src.file("bad.bin", random(10_000, 4), T0);
        src.file("good1.bin", random(10_000, 5), T0);
        src.file("good2.bin", random(10_000, 6), T0);
        src.readFaults.put("bad.bin", new AtomicInteger(1000));

        JobSummary summary = copy(options().build());

        assertThat(summary.state()).isEqualTo(JobState.COMPLETED_WITH_ERRORS);
        assertThat(summary.filesFailed()).isEqualTo(1);
        assertThat(summary.filesTransferred()).isEqualTo(2);
        assertThat(summary.failures()).singleElement().satisfies(failure -> {
            assertThat(failure.path()).isEqualTo("bad.bin");
            assertThat(failure.code()).isEqualTo(ErrorCode.IO_ERROR);
            assertThat(failure.attempts()).isEqualTo(4);
        });
        assertThat(dst.data("bad.bin")).isNull();
        assertThat(dst.temporaries).isEmpty();
    }

    @Test
    void aFullDestinationFailsTheJobAndLeavesNothingPartial() {
        for (int i = 0; i < 20; i++) {
            src.file("f" + i + ".bin", random(20_000, i), T0);
        }
        dst.spaceLeft.set(50_000);

        JobSummary summary = copy(options().concurrency(4).build());

        assertThat(summary.state()).isEqualTo(JobState.FAILED);
        assertThat(summary.error()).hasValueSatisfying(message -> assertThat(message).contains("no space"));
        assertThat(summary.errorCode()).contains(ErrorCode.NO_SPACE);
        assertThat(dst.temporaries).isEmpty();
        dst.nodes.forEach((path, node) -> {
            if (node.type() == EntryType.FILE) {
                assertThat(node.data()).as(path.toString()).isEqualTo(src.data(path.toString()));
            }
        });
    }

    @Test
    void theSinkFinishesOnceAfterTheLastCommitAndItsFailureFailsTheJob() {
        for (int i = 0; i < 10; i++) {
            src.file("d/f" + i + ".bin", random(20_000, i), T0);
        }

        JobSummary done = copy(options().concurrency(4).build());

        assertThat(done.state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(dst.finishes).hasValue(1);
        assertThat(dst.commitsAtFinish).isEqualTo(10);

        dst.finishFailure = new MoverException(ErrorCode.PLUGIN_FAILED, "the stream broke");
        JobSummary failed = copy(options().concurrency(4).build());

        assertThat(failed.state()).isEqualTo(JobState.FAILED);
        assertThat(failed.errorCode()).contains(ErrorCode.PLUGIN_FAILED);
        assertThat(failed.error()).hasValueSatisfying(message -> assertThat(message).contains("the stream broke"));
    }

    @Test
    void cancellationStopsTheJobAndCleansUp() {
        for (int i = 0; i < 50; i++) {
            src.file("f" + i + ".bin", random(16_384, i), T0);
        }
        dst.writeDelayNanos = 2_000_000;
        CancellationToken token = new CancellationToken();
        JobListener cancelOnFirstProgress = progress -> token.cancel();

        JobSummary summary = copy(options().concurrency(2).build(), cancelOnFirstProgress, token);

        assertThat(summary.state()).isEqualTo(JobState.CANCELLED);
        assertThat(summary.filesTransferred()).isLessThan(50);
        assertThat(dst.temporaries).isEmpty();
        assertThat(dst.finishes).as("a cancelled job does not finish its sink").hasValue(0);
    }

    @Test
    void aCancelAbortsWritesBlockedInThePluginInsteadOfWaitingForThem() {
        for (int i = 0; i < 4; i++) {
            src.file("f" + i + ".bin", random(10_000, i), T0);
        }
        dst.writesBlockUntilAbort = true;
        CancellationToken token = new CancellationToken();
        JobListener cancelOnceWritesWait = progress -> {
            if (!dst.temporaries.isEmpty()) {
                token.cancel();
            }
        };
        long start = System.nanoTime();

        JobSummary summary = copy(options().concurrency(2).build(), cancelOnceWritesWait, token);

        assertThat(summary.state()).isEqualTo(JobState.CANCELLED);
        assertThat(System.nanoTime() - start).as("ended by the abort, not by the writes' one-minute wait").isLessThan(Duration.ofSeconds(30).toNanos());
        assertThat(summary.filesFailed()).as("aborted files are cancelled, not failed").isZero();
        assertThat(dst.temporaries).isEmpty();
    }

    @Test
    void aCancelAbortsReadsBlockedInThePluginInsteadOfWaitingForThem() {
        for (int i = 0; i < 4; i++) {
            src.file("f" + i + ".bin", random(10_000, i), T0);
        }
        src.readsBlockUntilAbort = true;
        CancellationToken token = new CancellationToken();
        JobListener cancelOnceReadsWait = progress -> {
            if (src.readsWaiting.get() > 0) {
                token.cancel();
            }
        };
        long start = System.nanoTime();

        JobSummary summary = copy(options().concurrency(2).build(), cancelOnceReadsWait, token);

        assertThat(summary.state()).isEqualTo(JobState.CANCELLED);
        assertThat(System.nanoTime() - start).as("ended by the abort, not by the reads' one-minute wait").isLessThan(Duration.ofSeconds(30).toNanos());
        assertThat(summary.filesFailed()).as("aborted files are cancelled, not failed").isZero();
        assertThat(dst.temporaries).isEmpty();
    }

    @Test
    void theSummaryCarriesWhatTheEndpointsCounted() {
        src.file("a.bin", random(10_000, 1), T0);

        JobSummary summary = copy(options().build());

        assertThat(summary.pluginCounters()).containsEntry("destination.memory.writes", 3L).containsEntry("source.memory.writes", 0L);
        assertThat(EngineStats.pluginCounter("destination.memory.writes")).isGreaterThanOrEqualTo(3);
    }

    @Test
    void filtersSelectFilesAndPruneExcludedDirectories() {
        src.file("keep.txt", new byte[] {1}, T0);
        src.file("skip.log", new byte[] {2}, T0);
        src.file("sub/keep2.txt", new byte[] {3}, T0);
        src.file("node_modules/x.txt", new byte[] {4}, T0);

        JobSummary summary = copy(options().includes(List.of("*.txt")).excludes(List.of("node_modules")).build());

        assertThat(summary.state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(dst.data("keep.txt")).isNotNull();
        assertThat(dst.data("sub/keep2.txt")).isNotNull();
        assertThat(dst.data("skip.log")).isNull();
        assertThat(dst.nodes).doesNotContainKey(RelativePath.of("node_modules"));
    }

    @Test
    void overwritePolicies() {
        src.file("same.txt", "new".getBytes(), T0.plusSeconds(10));
        src.file("older.txt", "new".getBytes(), T0);
        dst.file("same.txt", "old".getBytes(), T0);
        dst.file("older.txt", "old".getBytes(), T0.plusSeconds(10));

        JobSummary never = copy(options().overwrite(OverwritePolicy.FALSE).build());
        assertThat(never.filesSkipped()).isEqualTo(2);
        assertThat(dst.data("same.txt")).isEqualTo("old".getBytes());

        JobSummary ifNewer = copy(options().overwrite(OverwritePolicy.IF_SOURCE_NEWER).build());
        assertThat(ifNewer.filesTransferred()).isEqualTo(1);
        assertThat(dst.data("same.txt")).isEqualTo("new".getBytes());
        assertThat(dst.data("older.txt")).isEqualTo("old".getBytes());

        copy(options().build());
        assertThat(dst.data("older.txt")).isEqualTo("new".getBytes());
    }

    @Test
    void dryRunReportsAndWritesNothing() {
        src.file("a.bin", new byte[100], T0);
        src.file("d/b.bin", new byte[200], T0);
        List<String> planned = new CopyOnWriteArrayList<>();
        JobListener listener = new JobListener() {
            @Override
            public void onProgress(Progress progress) {}

            @Override
            public void onDryRun(String action, String path, long size) {
                planned.add(action + " " + path + " " + size);
            }
        };

        JobSummary summary = copy(options().dryRun(true).build(), listener, new CancellationToken());

        assertThat(summary.state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(planned).containsExactlyInAnyOrder("copy a.bin 100", "copy d/b.bin 200");
        assertThat(dst.nodes.keySet()).containsExactly(RelativePath.ROOT);
        assertThat(dst.commits).hasValue(0);
    }

    @Test
    void verifyDetectsACorruptingDestination() {
        src.file("ok.bin", random(10_000, 7), T0);
        src.file("zz-bad.bin", random(10_000, 8), T0);
        dst.corruptPrefix = "zz-";

        JobSummary summary = copy(options().verify(true).retries(0, Duration.ofMillis(1)).build());

        assertThat(summary.state()).isEqualTo(JobState.COMPLETED_WITH_ERRORS);
        assertThat(summary.failures()).singleElement().satisfies(f -> assertThat(f.code()).isEqualTo(ErrorCode.CHECKSUM_MISMATCH));
        assertThat(dst.data("zz-bad.bin")).as("a file that failed verification is removed").isNull();
        assertThat(dst.data("ok.bin")).isEqualTo(src.data("ok.bin"));
    }

    @Test
    void aSlowDestinationIsNamedTheBottleneck() {
        for (int i = 0; i < 8; i++) {
            src.file("f" + i + ".bin", random(64 * 1024, i), T0);
        }
        dst.writeDelayNanos = 3_000_000;

        JobSummary summary = copy(options().concurrency(2).build());

        assertThat(summary.bottleneck()).hasValueSatisfying(b -> {
            assertThat(b.stage()).isEqualTo(Stage.WRITE);
            assertThat(b.explanation()).contains("WRITE");
        });
    }

    @Test
    void progressIsReportedAndEndsWithTheTerminalState() {
        src.file("a.bin", random(50_000, 9), T0);
        List<Progress> seen = new CopyOnWriteArrayList<>();

        copy(options().build(), seen::add, new CancellationToken());

        assertThat(seen).isNotEmpty();
        Progress last = seen.getLast();
        assertThat(last.state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(last.percent()).isEqualTo(100.0);
        assertThat(last.filesDone()).isEqualTo(1);
        assertThat(last.filesPending()).isZero();
    }

    @Test
    void staleTemporariesOfThisJobAreNotLeftBehindAndMissingSourceIsNotFound() {
        assertThatThrownBy(() -> engine.prepare(JobSpec.copy("mem://nope", "mem://dst", options().build()), "k", scratch))
                .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND));
    }

    @Test
    void onlyFoldersThatExistedAreSearchedForStaleTemporaries() {
        src.file("new/a", new byte[1], T0);
        src.file("old/b", new byte[1], T0);
        dst.dir("old", T0);
        copy(options().build());
        // a folder the copy created holds no temporaries of an earlier run: no listing of it
        assertThat(dst.cleaned).containsExactlyInAnyOrder(RelativePath.ROOT, RelativePath.of("old"));
    }

    @Test
    void badJobsAreRefusedBeforeAnythingRuns() {
        src.file("a", new byte[1], T0);
        assertThatThrownBy(() -> engine.prepare(JobSpec.copy("mem://src", "mem://src/inner", options().build()), "k", scratch))
                .isInstanceOfSatisfying(MoverException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
                    assertThat(e.getMessage()).contains("inside the source");
                });
        assertThatThrownBy(() -> engine.prepare(JobSpec.copy("mem://src", "foo://x", options().build()), "k", scratch))
                .isInstanceOfSatisfying(MoverException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.UNKNOWN_SCHEME);
                    assertThat(e.getMessage()).contains("mem");
                });
        assertThatThrownBy(() -> engine.prepare(JobSpec.copy("mem://src", "mem://dst", options().concurrency(0).build()), "k", scratch))
                .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.getMessage()).contains("concurrency"));
        assertThatThrownBy(() -> engine.prepare(JobSpec.copy("mem://src", "mem://dst", options().codec("brotli").build()), "k", scratch))
                .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.UNKNOWN_CODEC));
        assertThatThrownBy(() -> engine.prepare(JobSpec.copy("mem://src", "mem://dst", options().includes(List.of("[")).build()), "k", scratch))
                .isInstanceOf(MoverException.class);
        assertThat(dst.nodes.keySet()).containsExactly(RelativePath.ROOT);
    }
}
