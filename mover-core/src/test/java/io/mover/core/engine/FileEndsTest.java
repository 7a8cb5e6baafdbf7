package io.mover.core.engine;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.mover.core.plugin.PluginRegistry;
import io.mover.spi.ErrorCode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every file the run started ends ({@link JobControls#fileStarted} then {@link JobControls#fileEnded}), whatever fails on
 * its way: otherwise a paused job never reports PAUSED ({@link JobControls#drained}), and a file missing a range must not
 * be committed.
 */
@Timeout(60)
class FileEndsTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

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

    /** The virtual-thread executor, refusing its {@code refuse}-th task (as after a shutdown, or with no memory for a thread). */
    private static final class Refusing extends AbstractExecutorService {
        private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
        private final AtomicInteger tasks = new AtomicInteger();
        private final int refuse;

        Refusing(int refuse) {
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

    @Test
    void aRangeNoThreadCouldBeStartedForEndsItsFileFailed() {
        src.file("big.bin", new byte[128 * 1024], T0);
        JobControls controls = new JobControls(2, 0);
        PreparedJob job = engine.prepare(JobSpec.copy("mem://src", "mem://dst", options()), "job1", scratch);
        JobSummary summary;
        try (job) {
            // the second range's task is refused: ranges 2 to 8 are never started either
            summary = new TransferRun(job, Clock.systemUTC(), JobListener.NONE, new CancellationToken(), controls, null, () -> new Refusing(2)).run();
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
}
