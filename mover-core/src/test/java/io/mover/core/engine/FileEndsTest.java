package io.mover.core.engine;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.mover.core.plugin.PluginRegistry;
import io.mover.spi.ErrorCode;
import io.mover.spi.RelativePath;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every file the run started ends ({@link JobControls#fileStarted} then {@link JobControls#fileEnded}), whatever fails on
 * its way: otherwise a paused job never reports PAUSED ({@link JobControls#drained}), and a file missing a range must not
 * be committed. Small quick files go several to a worker ({@link FileBatches}), and each still starts, fails, retries,
 * pauses and ends as a lone file does.
 */
@Timeout(60)
class FileEndsTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    Path scratch;

    private final MemoryPlugin plugin = new MemoryPlugin();
    private final TransferEngine engine = new TransferEngine(PluginRegistry.of(List.of(plugin), "test"), Clock.systemUTC());
    private final MemoryStore src = plugin.store("src");
    private final MemoryStore dst = plugin.store("dst");

    /** 128 KiB files go in eight ranges of 16 KiB. */
    private static TransferOptions options() {
        return TransferOptions.builder().blockSize(4096).largeFiles(64 * 1024, 16 * 1024).bufferPoolBytes(1 << 20)
                .retries(0, Duration.ofMillis(1)).progressInterval(Duration.ofMillis(20)).build();
    }

    private static void assertEveryFileEnded(JobControls controls) {
        controls.pause();
        assertThat(controls.inFlight()).as("permits held").isZero();
        assertThat(controls.drained()).as("drained once paused").isTrue();
    }

    /** The virtual-thread executor, counting its tasks and refusing the {@code refuse}-th (as after a shutdown, or with no memory for a thread; 0: none). */
    private static final class Counting extends AbstractExecutorService {
        private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
        private final AtomicInteger tasks = new AtomicInteger();
        private final int refuse;

        Counting(int refuse) {
            this.refuse = refuse;
        }

        @Override
        public void execute(Runnable task) {
            if (tasks.incrementAndGet() == refuse) {
                throw new RejectedExecutionException("injected");
            }
            threads.execute(task);
        }

        @Override public void shutdown() { threads.shutdown(); }
        @Override public List<Runnable> shutdownNow() { return threads.shutdownNow(); }
        @Override public boolean isShutdown() { return threads.isShutdown(); }
        @Override public boolean isTerminated() { return threads.isTerminated(); }
        @Override public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
            return threads.awaitTermination(timeout, unit);
        }
    }

    /** {@code count} files of 4 bytes, f00, f01... in listing order. */
    private void files(String folder, int count) {
        for (int i = 0; i < count; i++) {
            src.file(folder + String.format("f%02d", i), new byte[] {(byte) i, 1, 2, 3}, T0);
        }
    }

    private CompletableFuture<JobSummary> start(JobSpec spec, JobControls controls, Counting executor, CancellationToken cancellation) {
        PreparedJob job = engine.prepare(spec, "job1", scratch);
        return CompletableFuture.supplyAsync(() -> {
            try (job) {
                return new TransferRun(job, Clock.systemUTC(), JobListener.NONE, cancellation, controls, null, () -> executor).run();
            }
        });
    }

    private JobSummary copy(int files, JobControls controls, Counting executor) throws Exception {
        files("", files);
        return start(JobSpec.copy("mem://src", "mem://dst", options()), controls, executor, new CancellationToken()).get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    /**
     * A copy of 40 files with one permit, once the read of f30 is under way: f00 alone (not yet timed), f01 alone (queued
     * before f00 ended), then batches, so f30 is inside one.
     */
    private CompletableFuture<JobSummary> heldAtF30(JobControls controls, Counting executor, CancellationToken cancellation) throws Exception {
        files("", 40);
        src.heldPath = "f30";
        CompletableFuture<JobSummary> result = start(JobSpec.copy("mem://src", "mem://dst", options()), controls, executor, cancellation);
        assertThat(src.heldReached.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
        return result;
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("waiting for " + what).isLessThan(deadline);
            Thread.sleep(2);
        }
    }

    @Test
    void aRangeNoThreadCouldBeStartedForEndsItsFileFailed() {
        src.file("big.bin", new byte[128 * 1024], T0);
        JobControls controls = new JobControls(2, 0);
        PreparedJob job = engine.prepare(JobSpec.copy("mem://src", "mem://dst", options()), "job1", scratch);
        JobSummary summary;
        try (job) {
            // the second range's task is refused: ranges 2 to 8 are never started either
            summary = new TransferRun(job, Clock.systemUTC(), JobListener.NONE, new CancellationToken(), controls, null, () -> new Counting(2)).run();
        }

        assertThat(summary.errorCode()).contains(ErrorCode.INTERNAL);
        assertThat(dst.data("big.bin")).as("a file missing ranges is not committed").isNull();
        assertEveryFileEnded(controls);
    }

    @Test
    void anErrorInOneRangeFailsTheFileInsteadOfCommittingItWithAHole() {
        src.file("big.bin", new byte[128 * 1024], T0);
        src.readError = new AssertionError("injected");
        src.readErrorFrom = 64 * 1024;
        JobControls controls = new JobControls(1, 0);
        PreparedJob job = engine.prepare(JobSpec.copy("mem://src", "mem://dst", options()), "job1", scratch);
        JobSummary summary;
        try (job) {
            summary = engine.run(job, JobListener.NONE, new CancellationToken(), controls);
        }

        assertThat(dst.data("big.bin")).as("committed without its ranges from 64 KiB").isNull();
        assertThat(summary.filesFailed()).isEqualTo(1);
        assertEveryFileEnded(controls);
    }

    @Test
    void aFileWhoseFolderTimesCannotBeSetStillEnds() {
        src.dir("d", T0);
        src.file("d/f.bin", new byte[100], T0);
        dst.directoryAttributesFailure = new IllegalStateException("injected");
        JobControls controls = new JobControls(1, 0);
        PreparedJob job = engine.prepare(JobSpec.copy("mem://src", "mem://dst", options()), "job1", scratch);
        try (job) {
            engine.run(job, JobListener.NONE, new CancellationToken(), controls);
        }

        assertThat(dst.data("d/f.bin")).hasSize(100);
        assertEveryFileEnded(controls);
    }

    @Test
    void quickSmallFilesShareWorkersAndEachKeepsItsOwnOutcome() throws Exception {
        for (int d = 0; d < 4; d++) {
            src.dir("d" + d, T0);
            files("d" + d + "/", 50);
        }
        src.failReads("d1/f07", 1);      // retried, then copied
        src.failReads("d2/f30", 5);      // fails for good
        Counting executor = new Counting(0);
        JobControls controls = new JobControls(4, 0);
        TransferOptions options = options().toBuilder().retries(1, Duration.ofMillis(1)).build();

        JobSummary summary = start(new JobSpec(JobKind.SYNC, "mem://src", "mem://dst", Map.of(), Map.of(), options), controls, executor,
                new CancellationToken()).get(WAIT.toSeconds(), TimeUnit.SECONDS);

        assertThat(summary.filesTransferred()).isEqualTo(199);
        assertThat(summary.filesFailed()).isEqualTo(1);
        assertThat(summary.retries()).isEqualTo(2);
        assertThat(dst.data("d1/f07")).isEqualTo(src.data("d1/f07"));
        assertThat(dst.data("d2/f30")).isNull();
        assertThat(executor.tasks.get()).as("workers for 200 files").isLessThan(200 / 4);
        for (int d = 0; d < 4; d++) {
            assertThat(dst.stat(RelativePath.of("d" + d)).orElseThrow().lastModified()).as("folder times after their files").isEqualTo(T0);
        }
        assertEveryFileEnded(controls);
    }

    @Test
    void aPauseBetweenTwoFilesOfABatchStartsNoMoreOfIt() throws Exception {
        Counting executor = new Counting(0);
        JobControls controls = new JobControls(1, 0);
        CompletableFuture<JobSummary> result = heldAtF30(controls, executor, new CancellationToken());

        controls.pause();
        src.heldRelease.countDown();
        await("the job to drain", controls::drained);
        Thread.sleep(100);

        assertThat(src.readOrder).as("files read once the pause was asked for").hasSize(31).last().isEqualTo("f30");
        assertThat(dst.commits.get()).isEqualTo(31);
        assertThat(result).isNotDone();

        controls.resume();
        assertThat(result.get(WAIT.toSeconds(), TimeUnit.SECONDS).filesTransferred()).isEqualTo(40);
        assertThat(executor.tasks.get()).as("f30 was in a batch").isLessThan(30);
    }

    @Test
    void aCancelEndsTheFilesWaitingInABatch() throws Exception {
        Counting executor = new Counting(0);
        JobControls controls = new JobControls(1, 0);
        CancellationToken cancellation = new CancellationToken();
        CompletableFuture<JobSummary> result = heldAtF30(controls, executor, cancellation);

        cancellation.cancel();
        src.heldRelease.countDown();

        assertThat(result.get(WAIT.toSeconds(), TimeUnit.SECONDS).state()).isEqualTo(JobState.CANCELLED);
        assertThat(src.readOrder).as("no file of the batch started after the cancel").last().isEqualTo("f30");
        assertThat(dst.data("f31")).isNull();
        assertThat(dst.temporaries).isEmpty();
        assertThat(executor.tasks.get()).as("f30 was in a batch").isLessThan(30);
        assertEveryFileEnded(controls);
    }

    @Test
    void anErrorInAFileOfABatchFailsTheFilesAfterItAndEndsThemAll() throws Exception {
        src.readError = new AssertionError("injected");
        src.readErrorPath = "f40";
        src.readErrorFrom = 0;
        JobControls controls = new JobControls(1, 0);

        JobSummary summary = copy(60, controls, new Counting(0));

        assertThat(dst.data("f40")).isNull();
        assertThat(dst.data("f41")).as("the next file of f40's batch never started").isNull();
        assertThat(summary.errorCode()).as("an Error stops the job").contains(ErrorCode.INTERNAL);
        assertThat(summary.filesFailed()).as("f40 and the rest of its batch").isGreaterThan(1);
        assertThat(dst.data("f39")).isNotNull();
        assertEveryFileEnded(controls);
    }

    @Test
    void aBatchNoWorkerTookEndsItsFilesFailed() throws Exception {
        JobControls controls = new JobControls(1, 0);

        // f00 and f01 alone, then batches: the fourth task is a batch of several files
        JobSummary summary = copy(60, controls, new Counting(4));

        assertThat(summary.errorCode()).contains(ErrorCode.INTERNAL);
        assertThat(summary.filesFailed()).as("the refused batch's files").isGreaterThan(1);
        assertEveryFileEnded(controls);
    }

    @Test
    void slowFilesKeepAWorkerEach() throws Exception {
        dst.writeDelayNanos = 2 * FileBatches.QUICK_NANOS;   // a service's round trip per file: the files in flight are the parallelism
        Counting executor = new Counting(0);

        assertThat(copy(12, new JobControls(4, 0), executor).filesTransferred()).isEqualTo(12);
        assertThat(executor.tasks.get()).isEqualTo(12);
    }
}
