package io.mover.core.engine;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.mover.core.plugin.PluginRegistry;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Pause, resume, live concurrency and the bandwidth cap, against the in-memory plugin. */
@Timeout(60)
class JobControlsTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    Path scratch;

    private final MemoryPlugin plugin = new MemoryPlugin();
    private final TransferEngine engine = new TransferEngine(PluginRegistry.of(List.of(plugin), "test"), Clock.systemUTC());
    private final MemoryStore src = plugin.store("src");
    private final MemoryStore dst = plugin.store("dst");

    private static TransferOptions.Builder options() {
        return TransferOptions.builder().blockSize(4096).largeFiles(64 * 1024, 16 * 1024).bufferPoolBytes(1 << 20)
                .retries(0, Duration.ofMillis(1)).progressInterval(Duration.ofMillis(20));
    }

    private void files(int count, int size) {
        for (int i = 0; i < count; i++) {
            byte[] data = new byte[size];
            new Random(i).nextBytes(data);
            src.file("d" + (i % 3) + "/f" + i + ".bin", data, T0);
        }
    }

    private CompletableFuture<JobSummary> start(TransferOptions options, JobControls controls, JobListener listener) {
        PreparedJob job = engine.prepare(JobSpec.copy("mem://src", "mem://dst", options), "job1", scratch);
        return CompletableFuture.supplyAsync(() -> {
            try (job) {
                return engine.run(job, listener, new CancellationToken(), controls);
            }
        });
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("waiting for " + what).isLessThan(deadline);
            Thread.sleep(5);
        }
    }

    private void assertIdentical() {
        src.nodes.forEach((path, node) -> {
            if (node.data() != null) {
                assertThat(dst.data(path.toString())).as(path.toString()).isEqualTo(node.data());
            }
        });
        assertThat(dst.temporaries).isEmpty();
    }

    @Test
    void aPausedJobWithAFileBetweenTwoRangesIsNotYetDrained() {
        JobControls controls = new JobControls(1, 0);
        controls.fileStarted();
        assertThat(controls.acquire(false, () -> false)).isTrue();
        controls.pause();
        controls.release(); // the first range is written; the second has no permit yet
        assertThat(controls.drained()).as("a half-written file is still open").isFalse();
        assertThat(controls.acquire(true, () -> false)).as("a started file's next range passes the pause").isTrue();
        controls.release();
        controls.fileEnded();
        assertThat(controls.drained()).isTrue();
    }

    @Test
    void pauseStopsNewFilesAndResumeFinishesTheTreeByteIdentical() throws Exception {
        files(100, 16 * 1024); // a third of a second or more at 3 ms a block: long enough to be caught running
        dst.writeDelayNanos = 3_000_000;
        TransferOptions options = options().concurrency(4).build();
        JobControls controls = JobControls.of(options);
        List<Progress> seen = new CopyOnWriteArrayList<>();

        CompletableFuture<JobSummary> result = start(options, controls, seen::add);
        await("a few commits", () -> dst.commits.get() >= 3);
        controls.pause();
        await("work in flight to drain", controls::drained);
        int committed = dst.commits.get();
        await("a PAUSED progress report", () -> !seen.isEmpty() && seen.getLast().state() == JobState.PAUSED);
        int reportsWhilePaused = seen.size();
        Thread.sleep(150);

        assertThat(dst.commits.get()).as("no file starts while paused").isEqualTo(committed);
        assertThat(dst.temporaries).as("no half-written file is held open").isEmpty();
        assertThat(seen.size()).as("progress keeps flowing").isGreaterThan(reportsWhilePaused);
        assertThat(committed).isLessThan(100);
        assertThat(result).isNotDone();

        controls.resume();
        JobSummary summary = result.get(WAIT.toSeconds(), TimeUnit.SECONDS);

        assertThat(summary.state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(summary.filesTransferred()).isEqualTo(100);
        assertIdentical();
    }

    @Test
    void aPausedLargeFileFinishesItsRangesBeforeThePauseHolds() throws Exception {
        files(1, 256 * 1024); // 16 ranges of 16 KiB
        dst.writeDelayNanos = 1_000_000;
        TransferOptions options = options().concurrency(2).build();
        JobControls controls = JobControls.of(options);

        CompletableFuture<JobSummary> result = start(options, controls, JobListener.NONE);
        await("the file to start", () -> !dst.temporaries.isEmpty());
        controls.pause();
        JobSummary summary = result.get(WAIT.toSeconds(), TimeUnit.SECONDS);

        assertThat(summary.state()).isEqualTo(JobState.SUCCEEDED);
        assertIdentical();
    }

    @Test
    void concurrencyChangesWhileTheJobRuns() throws Exception {
        files(120, 8 * 1024);
        dst.writeDelayNanos = 2_000_000;
        TransferOptions options = options().concurrency(1).build();
        JobControls controls = JobControls.of(options);

        CompletableFuture<JobSummary> result = start(options, controls, JobListener.NONE);
        await("a few commits", () -> dst.commits.get() >= 3);
        assertThat(controls.maxInFlight()).isEqualTo(1);
        controls.concurrency(6);
        await("more files in flight", () -> controls.maxInFlight() >= 4);
        controls.concurrency(2);
        await("in flight to shrink", () -> controls.inFlight() <= 2);
        int peakAfterShrink = 0;
        for (int i = 0; i < 20 && !result.isDone(); i++) {
            peakAfterShrink = Math.max(peakAfterShrink, controls.inFlight());
            Thread.sleep(2);
        }
        JobSummary summary = result.get(WAIT.toSeconds(), TimeUnit.SECONDS);

        assertThat(peakAfterShrink).isLessThanOrEqualTo(2);
        assertThat(controls.maxInFlight()).isLessThanOrEqualTo(6);
        assertThat(summary.state()).isEqualTo(JobState.SUCCEEDED);
        assertIdentical();
    }

    @Test
    void theCapLimitsThroughputAcrossWorkers() throws Exception {
        files(8, 256 * 1024); // 2 MiB
        TransferOptions options = options().concurrency(8).bandwidthCap(4L << 20).build();

        long start = System.nanoTime();
        JobSummary summary = start(options, JobControls.of(options), JobListener.NONE).get(WAIT.toSeconds(), TimeUnit.SECONDS);
        double seconds = (System.nanoTime() - start) / 1e9;

        assertThat(summary.state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(seconds).as("2 MiB at 4 MiB/s").isGreaterThanOrEqualTo(0.35);
        assertIdentical();
    }

    @Test
    void liftingTheCapLiveLetsTheJobFinish() throws Exception {
        files(8, 256 * 1024); // 2 MiB: 32 s at 64 KiB/s
        TransferOptions options = options().concurrency(4).bandwidthCap(64 * 1024).build();
        JobControls controls = JobControls.of(options);

        CompletableFuture<JobSummary> result = start(options, controls, JobListener.NONE);
        Thread.sleep(200);
        assertThat(result).isNotDone();
        controls.bandwidthCap(0);
        JobSummary summary = result.get(10, TimeUnit.SECONDS);

        assertThat(summary.state()).isEqualTo(JobState.SUCCEEDED);
        assertIdentical();
    }

    @Test
    void badSettingsAreRefusedNamingTheFieldAndRange() {
        JobControls controls = new JobControls(4, 0);
        assertThatThrownBy(() -> controls.concurrency(0)).isInstanceOfSatisfying(MoverException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
            assertThat(e.getMessage()).contains("concurrency", "between 1 and 1024");
        });
        assertThatThrownBy(() -> controls.bandwidthCap(-5)).isInstanceOfSatisfying(MoverException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
            assertThat(e.getMessage()).contains("bandwidth cap", "1 TiB/s");
        });
        assertThatThrownBy(() -> options().bandwidthCap(1L << 50).build().validate()).isInstanceOf(MoverException.class);
        assertThat(controls.concurrency()).isEqualTo(4);
        assertThat(controls.bandwidthCap()).isZero();
    }

    @Test
    void cancellingAPausedJobEndsIt() throws Exception {
        files(20, 8 * 1024);
        dst.writeDelayNanos = 1_000_000;
        TransferOptions options = options().concurrency(2).build();
        JobControls controls = JobControls.of(options);
        controls.pause();
        CancellationToken token = new CancellationToken();
        PreparedJob job = engine.prepare(JobSpec.copy("mem://src", "mem://dst", options), "job1", scratch);
        CompletableFuture<JobSummary> result = CompletableFuture.supplyAsync(() -> {
            try (job) {
                return engine.run(job, JobListener.NONE, token, controls);
            }
        });
        Thread.sleep(100);
        assertThat(dst.commits.get()).as("a job paused from the start moves nothing").isZero();
        token.cancel();

        assertThat(result.get(WAIT.toSeconds(), TimeUnit.SECONDS).state()).isEqualTo(JobState.CANCELLED);
        assertThat(dst.temporaries).isEmpty();
    }
}
