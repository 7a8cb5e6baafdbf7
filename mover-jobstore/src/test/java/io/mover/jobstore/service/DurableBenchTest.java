package io.mover.jobstore.service;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.mover.bench.BenchReport;
import io.mover.bench.JsonReport;
import io.mover.core.engine.BenchOptions;
import io.mover.core.engine.JobKind;
import io.mover.core.engine.JobSpec;
import io.mover.core.engine.JobState;
import io.mover.core.engine.JobSummary;
import io.mover.core.engine.TransferOptions;
import io.mover.core.plugin.PluginRegistry;
import io.mover.core.service.JobId;
import io.mover.core.service.JobView;
import io.mover.jobstore.JobDatabase;
import io.mover.jobstore.JobStores;
import io.mover.jobstore.NewJob;
import io.mover.jobstore.SchedulerSettings;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Bench jobs on the durable store (issue 8), for real: gen:// data into local folders, on the H2 store. */
@Timeout(180)
class DurableBenchTest {
    @TempDir
    Path dataDir;

    @TempDir
    Path targets;

    private final PluginRegistry registry = PluginRegistry.fromClassPath();
    private DurableJobService service;

    private DurableJobService open() {
        SchedulerSettings settings = new SchedulerSettings("node-1", Duration.ofMillis(100), Duration.ofSeconds(1), 4, 4, Duration.ofSeconds(20),
                Clock.systemUTC());
        service = new DurableJobService(JobStores.open(dataDir), registry, dataDir.resolve("scratch"), name -> Optional.empty(), settings,
                Duration.ofMillis(100));
        return service;
    }

    @AfterEach
    void close() {
        if (service != null) {
            service.close();
        }
    }

    private static JobSpec transfer(Path target) {
        BenchOptions bench = new BenchOptions(BenchOptions.Mode.TRANSFER, 6, 16 * 1024, "mixed", List.of(1, 2), false, "mover-bench",
                BenchOptions.DEFAULTS.ioSize(), BenchOptions.DEFAULTS.queueDepths(), BenchOptions.DEFAULTS.runtime(),
                BenchOptions.DEFAULTS.writeBlockSizes(), BenchOptions.DEFAULTS.streams(), BenchOptions.DEFAULTS.codecs());
        return JobSpec.bench(target.toString(), Map.of(), TransferOptions.builder().codec("none").bench(bench).build());
    }

    /** An IO bench that runs for {@code seconds} per point: long enough to be caught running. */
    private static JobSpec slowIo(Path target, int seconds) {
        BenchOptions bench = new BenchOptions(BenchOptions.Mode.IO, 1, 1, "random", List.of(1), false, "mover-bench", 1 << 20, List.of(1),
                Duration.ofSeconds(seconds), List.of(65536L), List.of(1), List.of("none"));
        return JobSpec.bench(target.toString(), Map.of(), TransferOptions.builder().bench(bench).build());
    }

    private JobSummary await(JobId id) throws InterruptedException {
        return service.await(id, Duration.ofSeconds(90)).orElseThrow(() -> new AssertionError("bench did not end in 90 s"));
    }

    private void awaitState(JobId id, JobState state) throws InterruptedException {
        for (int i = 0; i < 600; i++) {
            if (service.get(id).orElseThrow().state() == state) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("bench " + id + " never became " + state + "; it is " + service.get(id).orElseThrow().state());
    }

    private static List<Path> contents(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.toList();
        }
    }

    @Test
    void aBenchIsAJobAndItsReportOutlivesTheServer() throws Exception {
        Path target = Files.createDirectories(targets.resolve("t"));
        open();
        JobView submitted = service.submit(transfer(target));
        assertThat(submitted.state()).isEqualTo(JobState.QUEUED);
        assertThat(submitted.spec().kind()).isEqualTo(JobKind.BENCH);

        JobSummary summary = await(submitted.id());

        assertThat(summary.state()).as(summary.error().orElse("")).isEqualTo(JobState.SUCCEEDED);
        JobView view = service.get(submitted.id()).orElseThrow();
        assertThat(view.progress().orElseThrow().phase()).hasValueSatisfying(phase -> assertThat(phase.step()).isEqualTo(phase.steps()).isEqualTo(4));
        assertThat(view.progress().orElseThrow().percent()).isEqualTo(100.0);
        assertThat(service.list(Optional.empty(), Optional.of(JobKind.BENCH), 0, 10)).extracting(JobView::id).containsExactly(submitted.id());
        assertThat(service.list(Optional.empty(), Optional.of(JobKind.COPY), 0, 10)).isEmpty();
        BenchReport report = JsonReport.parse(service.report(submitted.id()).orElseThrow());
        assertThat(report.sweep()).extracting(BenchReport.SweepPoint::concurrency).containsExactly(1, 2);
        assertThat(contents(target)).as("the bench removes what it wrote").isEmpty();

        service.close();
        open();

        assertThat(service.get(submitted.id()).orElseThrow().state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(JsonReport.parse(service.report(submitted.id()).orElseThrow())).isEqualTo(report);
        assertThat(service.get(submitted.id()).orElseThrow().spec().options().bench().concurrencies()).containsExactly(1, 2);
    }

    @Test
    void cancelStopsARunningBenchAndItRemovesItsFiles() throws Exception {
        Path target = Files.createDirectories(targets.resolve("t"));
        open();
        JobId id = service.submit(slowIo(target, 20)).id();
        awaitState(id, JobState.RUNNING);

        service.cancel(id);

        assertThat(await(id).state()).isEqualTo(JobState.CANCELLED);
        assertThat(service.report(id)).isEmpty();
        assertThat(contents(target)).isEmpty();
    }

    @Test
    void aBenchRunningWhenItsMoverStopsOrDiesEndsInterruptedAndIsNotRunAgain() throws Exception {
        Path target = Files.createDirectories(targets.resolve("t"));
        open();
        JobId stopped = service.submit(slowIo(target, 20)).id();
        awaitState(stopped, JobState.RUNNING);
        service.close();
        // a mover that died mid-bench leaves it RUNNING in the store, its execution picked
        JobId died = JobId.random();
        try (JobDatabase database = JobStores.open(dataDir)) {
            database.store().create(new NewJob(died, JobKind.BENCH, new StoredSpec(registry, name -> Optional.empty()).encode(slowIo(target, 1))));
            database.store().transition(died, JobState.RUNNING, Optional.empty());
        }

        open();

        for (JobId id : List.of(stopped, died)) {
            JobSummary summary = await(id);
            assertThat(summary.state()).isEqualTo(JobState.FAILED);
            assertThat(summary.errorCode()).contains(ErrorCode.CANCELLED);
            assertThat(summary.error().orElseThrow()).startsWith("interrupted: the mover running this bench").contains("submit it again");
        }
        assertThat(contents(target)).as("the stopped bench removed its files as it stopped").isEmpty();
    }

    @Test
    void benchesRunOneAtATimeAndAtMostEightWait() throws Exception {
        Path target = Files.createDirectories(targets.resolve("t"));
        open();
        JobId first = service.submit(slowIo(target, 20)).id();
        awaitState(first, JobState.RUNNING);
        List<JobId> queued = new ArrayList<>();
        for (int i = 0; i < DurableBenches.MAX_QUEUED; i++) {
            queued.add(service.submit(slowIo(target, 1)).id());
        }

        assertThatThrownBy(() -> service.submit(slowIo(target, 1)))
                .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.THROTTLED))
                .hasMessageContaining("8 benches are queued already");
        for (int i = 0; i < 30; i++) { // 3 s: waiting executions try again every 2 s and find the node busy
            assertThat(service.list(Optional.of(JobState.RUNNING), Optional.of(JobKind.BENCH), 0, 10)).extracting(JobView::id).containsExactly(first);
            Thread.sleep(100);
        }
        assertThatThrownBy(() -> service.pause(first))
                .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.UNSUPPORTED));

        queued.forEach(service::cancel);
        service.cancel(first);
        for (JobId id : queued) {
            assertThat(await(id).state()).isEqualTo(JobState.CANCELLED);
        }
        assertThat(await(first).state()).isEqualTo(JobState.CANCELLED);
    }

    @Test
    void badBenchesAreRefusedBeforeTheyExist() {
        open();
        BenchOptions zero = new BenchOptions(BenchOptions.Mode.TRANSFER, 1, 1, "random", List.of(0), false, "mover-bench", 1, List.of(1),
                Duration.ofSeconds(1), List.of(4096L), List.of(1), List.of("none"));
        assertThatThrownBy(() -> service.submit(JobSpec.bench(targets.toString(), Map.of(), TransferOptions.builder().bench(zero).build())))
                .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessageContaining("--concurrency");
        assertThatThrownBy(() -> service.submit(JobSpec.bench("nosuch://x/y", Map.of(), transfer(targets).options())))
                .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.UNKNOWN_SCHEME));
        assertThat(service.list(Optional.empty(), 0, 10)).isEmpty();
    }
}
