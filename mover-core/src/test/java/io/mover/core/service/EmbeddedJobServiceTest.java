package io.mover.core.service;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.mover.core.engine.JobSpec;
import io.mover.core.engine.JobState;
import io.mover.core.engine.MemoryPlugin;
import io.mover.core.engine.MemoryStore;
import io.mover.core.engine.JobSummary;
import io.mover.core.engine.Progress;
import io.mover.core.engine.TransferOptions;
import io.mover.core.plugin.PluginRegistry;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The façade over the in-memory plugin of the engine tests. */
@Timeout(60)
class EmbeddedJobServiceTest {
    @TempDir
    Path dir;

    private EmbeddedJobService service;

    private final MemoryPlugin plugin = new MemoryPlugin();
    private final MemoryStore src = plugin.store("src");

    private EmbeddedJobService service() {
        service = new EmbeddedJobService(PluginRegistry.of(List.of(plugin), "test"), dir.resolve("scratch"), Clock.systemUTC(), 2);
        return service;
    }

    @AfterEach
    void close() {
        if (service != null) {
            service.close();
        }
    }

    private JobSpec copy(String from, String to) {
        return JobSpec.copy("mem://" + from, "mem://" + to,
                TransferOptions.builder().progressInterval(Duration.ofMillis(20)).build());
    }

    /** A job slow enough to be caught running: one file at a time, each write a few milliseconds. */
    private JobSpec slowCopy(int files) {
        for (int i = 0; i < files; i++) {
            src.file("f" + i + ".bin", new byte[16 * 1024], Instant.EPOCH);
        }
        plugin.store("dst").writeDelay(Duration.ofMillis(3));
        return JobSpec.copy("mem://src", "mem://dst",
                TransferOptions.builder().concurrency(2).progressInterval(Duration.ofMillis(20)).build());
    }

    @Test
    void submitRunsAJobThatCanBeAwaitedListedAndWatched() throws Exception {
        src.file("sub/a.txt", "alpha".getBytes(StandardCharsets.UTF_8), Instant.EPOCH);
        EmbeddedJobService jobs = service();

        JobView view = jobs.submit(copy("src", "dst"));
        List<Progress> seen = new CopyOnWriteArrayList<>();
        try (AutoCloseable subscription = jobs.subscribe(view.id(), seen::add)) {
            Optional<JobSummary> summary = jobs.await(view.id(), Duration.ofSeconds(30));

            assertThat(summary).hasValueSatisfying(s -> assertThat(s.state()).isEqualTo(JobState.SUCCEEDED));
        }
        assertThat(plugin.store("dst").data("sub/a.txt")).isEqualTo("alpha".getBytes(StandardCharsets.UTF_8));
        // the end reaches listeners just after the result completes
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while ((seen.isEmpty() || !seen.getLast().state().isTerminal()) && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(seen).isNotEmpty();
        assertThat(seen.getLast().state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(jobs.get(view.id())).hasValueSatisfying(v -> {
            assertThat(v.state()).isEqualTo(JobState.SUCCEEDED);
            assertThat(v.summary()).isPresent();
        });
        assertThat(jobs.list(Optional.of(JobState.SUCCEEDED), 0, 10)).extracting(JobView::id).containsExactly(view.id());
        assertThat(jobs.list(Optional.of(JobState.FAILED), 0, 10)).isEmpty();
        assertThat(Files.list(dir.resolve("scratch")).toList()).as("per-job scratch removed").isEmpty();
    }

    @Test
    void aLateSubscriberGetsTheTerminalProgress() throws Exception {
        EmbeddedJobService jobs = service();
        JobView view = jobs.submit(copy("src", "dst"));
        jobs.await(view.id(), Duration.ofSeconds(30));

        List<Progress> seen = new CopyOnWriteArrayList<>();
        jobs.subscribe(view.id(), seen::add).close();

        assertThat(seen).singleElement().satisfies(p -> assertThat(p.state()).isEqualTo(JobState.SUCCEEDED));
    }

    @Test
    void userErrorsAreThrownAtSubmitAndNoJobIsCreated() {
        EmbeddedJobService jobs = service();
        assertThatThrownBy(() -> jobs.submit(copy("missing", "dst")))
                .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND));
        assertThat(jobs.list(Optional.empty(), 0, 10)).isEmpty();
    }

    @Test
    void cancellingAnUnknownJobIsNotFound() {
        EmbeddedJobService jobs = service();
        assertThatThrownBy(() -> jobs.cancel(JobId.random()))
                .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND));
    }

    @Test
    void pauseShowsPausedAndResumeFinishesTheJob() throws Exception {
        MemoryStore dst = plugin.store("dst");
        EmbeddedJobService jobs = service();
        JobView view = jobs.submit(slowCopy(60));

        JobView paused = jobs.pause(view.id());
        assertThat(paused.settings().pauseRequested()).isTrue();
        awaitState(jobs, view.id(), JobState.PAUSED);
        assertThat(jobs.list(Optional.of(JobState.PAUSED), 0, 10)).extracting(JobView::id).containsExactly(view.id());
        int committed = dst.commitCount();
        Thread.sleep(100);
        assertThat(dst.commitCount()).isEqualTo(committed);

        JobView resumed = jobs.resume(view.id());
        assertThat(resumed.settings().pauseRequested()).isFalse();
        assertThat(jobs.await(view.id(), Duration.ofSeconds(30))).hasValueSatisfying(s -> assertThat(s.state()).isEqualTo(JobState.SUCCEEDED));
        assertThat(dst.commitCount()).isEqualTo(60);
    }

    @Test
    void updateChangesLiveSettingsAndRefusesBadOnesNamingTheField() throws Exception {
        EmbeddedJobService jobs = service();
        JobView view = jobs.submit(slowCopy(60));
        jobs.pause(view.id());

        JobView updated = jobs.update(view.id(), new JobUpdate(Optional.of(3), Optional.of(8L << 20)));
        assertThat(updated.settings().concurrency()).isEqualTo(3);
        assertThat(updated.settings().bandwidthCapBytesPerSecond()).isEqualTo(8L << 20);
        assertThatThrownBy(() -> jobs.update(view.id(), new JobUpdate(Optional.of(2), Optional.of(-1L))))
                .isInstanceOfSatisfying(MoverException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
                    assertThat(e.getMessage()).contains("bandwidth cap").doesNotContain("\n");
                });
        assertThat(jobs.get(view.id()).orElseThrow().settings().concurrency()).as("a bad update changes nothing").isEqualTo(3);
        assertThatThrownBy(() -> jobs.update(view.id(), JobUpdate.concurrency(5000)))
                .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.getMessage()).contains("concurrency", "between 1 and 1024"));
        jobs.resume(view.id());
        jobs.await(view.id(), Duration.ofSeconds(30));
    }

    @Test
    void anEndedJobCannotBePausedResumedOrUpdated() throws Exception {
        EmbeddedJobService jobs = service();
        JobView view = jobs.submit(copy("src", "dst"));
        jobs.await(view.id(), Duration.ofSeconds(30));

        assertThatThrownBy(() -> jobs.pause(view.id()))
                .isInstanceOfSatisfying(JobEndedException.class, e -> {
                    assertThat(e.state()).isEqualTo(JobState.SUCCEEDED);
                    assertThat(e.getMessage()).contains("cannot pause", "has ended");
                });
        assertThatThrownBy(() -> jobs.resume(view.id())).isInstanceOf(JobEndedException.class);
        assertThatThrownBy(() -> jobs.update(view.id(), JobUpdate.concurrency(2))).isInstanceOf(JobEndedException.class);
        assertThatThrownBy(() -> jobs.pause(JobId.random()))
                .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND));
    }

    @Test
    void failedFilesAreKeptWithTheirReasons() throws Exception {
        src.file("bad.bin", new byte[100], Instant.EPOCH);
        src.file("good.bin", new byte[100], Instant.EPOCH);
        src.failReads("bad.bin", 1000);
        EmbeddedJobService jobs = service();
        JobView view = jobs.submit(JobSpec.copy("mem://src", "mem://dst",
                TransferOptions.builder().retries(1, Duration.ofMillis(1)).progressInterval(Duration.ofMillis(20)).build()));
        jobs.await(view.id(), Duration.ofSeconds(30));

        FileResults failed = jobs.files(view.id(), Optional.of(FileOutcome.FAILED), 0, 10);
        assertThat(failed.items()).singleElement().satisfies(file -> {
            assertThat(file.path()).isEqualTo("bad.bin");
            assertThat(file.outcome()).isEqualTo(FileOutcome.FAILED);
            assertThat(file.code()).contains(ErrorCode.IO_ERROR);
            assertThat(file.message()).hasValueSatisfying(m -> assertThat(m).contains("injected"));
            assertThat(file.attempts()).isEqualTo(2);
        });
        assertThat(failed.notKept()).isZero();
        assertThat(jobs.files(view.id(), Optional.of(FileOutcome.FAILED), 1, 10).items()).isEmpty();
        FileResults transferred = jobs.files(view.id(), Optional.of(FileOutcome.TRANSFERRED), 0, 10);
        assertThat(transferred.items()).isEmpty();
        assertThat(transferred.notKept()).as("counted, not kept, by the embedded service").isEqualTo(1);
    }

    private static void awaitState(JobService jobs, JobId id, JobState state) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (jobs.get(id).orElseThrow().state() != state) {
            assertThat(System.nanoTime()).as("waiting for " + state).isLessThan(deadline);
            Thread.sleep(5);
        }
    }
}
