package io.mover.jobstore.service;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.mover.core.engine.JobKind;
import io.mover.core.engine.JobSpec;
import io.mover.core.engine.JobState;
import io.mover.core.engine.JobSummary;
import io.mover.core.engine.MemoryPlugin;
import io.mover.core.engine.MemoryStore;
import io.mover.core.engine.SyncOptions;
import io.mover.core.engine.TransferOptions;
import io.mover.core.plugin.PluginRegistry;
import io.mover.core.service.FileOutcome;
import io.mover.core.service.FileResult;
import io.mover.core.service.JobId;
import io.mover.jobstore.JobStores;
import io.mover.jobstore.SchedulerSettings;
import io.mover.spi.RelativePath;

import static org.assertj.core.api.Assertions.assertThat;

/** Sync jobs on the durable job service: copies in units, deletes recorded once, guards before any change, the report kept. */
@Timeout(120)
class DurableSyncTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    @TempDir
    Path dataDir;

    private final MemoryPlugin plugin = new MemoryPlugin();
    private final MemoryStore src = plugin.store("src");
    private final MemoryStore dst = plugin.store("dst");
    private DurableJobService service;

    private void open() {
        SchedulerSettings settings = new SchedulerSettings("node-1", Duration.ofMillis(100), Duration.ofSeconds(1), 4, 4, Duration.ofSeconds(20),
                Clock.systemUTC());
        service = new DurableJobService(JobStores.open(dataDir), PluginRegistry.of(List.of(plugin), "test"), dataDir.resolve("scratch"),
                name -> Optional.empty(), settings, Duration.ofMillis(100), 50);
    }

    @AfterEach
    void close() {
        if (service != null) {
            service.close();
        }
    }

    private JobSummary sync(SyncOptions sync) throws InterruptedException {
        TransferOptions options = TransferOptions.builder().blockSize(4096).bufferPoolBytes(1 << 20).retries(1, Duration.ofMillis(1))
                .sync(sync).build();
        JobId id = service.submit(new JobSpec(JobKind.SYNC, "mem://src", "mem://dst", Map.of(), Map.of(), options)).id();
        lastId = id;
        return service.await(id, Duration.ofSeconds(60)).orElseThrow(() -> new AssertionError("job did not end in 60 s"));
    }

    private JobId lastId;

    private static SyncOptions deletes(long max) {
        return new SyncOptions(SyncOptions.DeleteMode.TRUE, max, SyncOptions.ComparePolicy.SIZE_MTIME, false, Optional.empty(), 0, -1,
                Optional.empty(), Optional.empty());
    }

    @Test
    void syncsInUnitsAndRecordsDeletesOnce() throws InterruptedException {
        for (int i = 0; i < 1500; i++) {
            src.file("d" + (i % 5) + "/f" + i, ("file " + i).getBytes(), T0.plusSeconds(i));
        }
        src.dir("d2", T0.plusSeconds(5000));
        dst.file("stale/old.txt", "old".getBytes(), T0);
        dst.file("d1/extra", "extra".getBytes(), T0);
        open();

        JobSummary first = sync(deletes(-1));

        assertThat(first.state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(dst.filePaths()).isEqualTo(src.filePaths());
        assertThat(dst.stat(RelativePath.of("d2")).orElseThrow().lastModified()).isEqualTo(T0.plusSeconds(5000));
        assertThat(first.filesTransferred()).isEqualTo(1500);
        assertThat(first.sync()).hasValueSatisfying(r -> {
            assertThat(r.sourceFiles()).isEqualTo(1500);
            assertThat(r.destinationFiles()).isEqualTo(2);
            assertThat(r.deleted()).isEqualTo(2);
        });
        List<FileResult> deleted = service.files(lastId, Optional.of(FileOutcome.DELETED), 0, 100).items();
        assertThat(deleted).extracting(FileResult::path).containsExactlyInAnyOrder("d1/extra", "stale/old.txt", "stale");

        JobSummary again = sync(deletes(-1));
        assertThat(again.state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(again.filesTransferred()).isZero();
        assertThat(again.filesScanned()).isEqualTo(1500);
        assertThat(again.sync().orElseThrow().unchanged()).isEqualTo(1500);
        assertThat(service.files(lastId, Optional.empty(), 0, 10).items()).isEmpty();
    }

    @Test
    void theGuardFailsTheJobBeforeAnythingChanges() throws InterruptedException {
        src.file("keep", "k".getBytes(), T0);
        src.file("new", "n".getBytes(), T0);
        dst.file("keep", "k".getBytes(), T0);
        dst.file("a", "a".getBytes(), T0);
        dst.file("b", "b".getBytes(), T0);
        open();

        JobSummary summary = sync(deletes(1));

        assertThat(summary.state()).isEqualTo(JobState.FAILED);
        assertThat(summary.error().orElseThrow()).contains("--max-delete 1");
        assertThat(dst.filePaths()).containsExactly("a", "b", "keep");
    }

    @Test
    void aSyncWithTheCatalogListsTheDestinationOnceAndKeepsItsRecordAcrossJobs() throws InterruptedException, IOException {
        for (int i = 0; i < 120; i++) {
            src.file("d" + (i % 4) + "/f" + i, ("file " + i).getBytes(), T0);
        }
        dst.file("stale/old.txt", "old".getBytes(), T0);
        open();
        SyncOptions catalog = deletes(-1).withCatalog(true);

        assertThat(sync(catalog).state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(dst.filePaths()).isEqualTo(src.filePaths());
        int listed = dst.listCount();
        assertThat(dataDir.resolve("catalog")).isDirectory();

        src.file("d1/f1", "changed, longer".getBytes(), T0.plusSeconds(60));
        src.file("d9/new", "new".getBytes(), T0);
        JobSummary second = sync(catalog);
        assertThat(second.state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(dst.listCount()).as("no destination folder listed").isEqualTo(listed);
        assertThat(second.filesTransferred()).isEqualTo(2);
        assertThat(dst.filePaths()).isEqualTo(src.filePaths());

        byte[] generation = catalogIndexId();
        JobSummary third = sync(catalog);
        assertThat(third.filesTransferred()).isZero();
        assertThat(third.sync().orElseThrow().unchanged()).isEqualTo(121);
        assertThat(dst.listCount()).isEqualTo(listed);
        assertThat(catalogIndexId()).as("nothing changed: the catalog is kept, not written again").isEqualTo(generation);
        try (var pairs = Files.list(dataDir.resolve("catalog"))) {
            assertThat(pairs.map(pair -> pair.resolve("current")).allMatch(Files::isDirectory)).isTrue();
        }
    }

    @Test
    void aSyncWithNothingToDoDoesNotOpenTheDestinationAgainToEnd() throws InterruptedException {
        // at the root: a folder made by the memory store gets the time of its making, which would be a time to set
        src.file("a", "a".getBytes(), T0);
        dst.file("a", "a".getBytes(), T0);
        open();
        int before = plugin.sinksOpened();

        JobSummary summary = sync(deletes(-1));

        assertThat(summary.state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(summary.sync().orElseThrow().unchanged()).isEqualTo(1);
        // the submit's check and the driver's listing; the finisher has no folder time to set, so it opens nothing
        // (it opened both endpoints again before the job's end was written and sent)
        assertThat(plugin.sinksOpened() - before).isEqualTo(2);
    }

    /**
     * The id the pair's current catalog generation starts its index with (a new generation draws a new one), once the
     * last job's catalog is committed: that follows the job's end, so its pending generation is waited for.
     */
    private byte[] catalogIndexId() throws IOException, InterruptedException {
        Path pair;
        try (var pairs = Files.list(dataDir.resolve("catalog"))) {
            pair = pairs.findFirst().orElseThrow();
        }
        for (int i = 0; i < 500 && pending(pair); i++) { // bounded: 10 s
            Thread.sleep(20);
        }
        assertThat(pending(pair)).as("the last job's catalog committed").isFalse();
        return Arrays.copyOf(Files.readAllBytes(pair.resolve("current").resolve("index")), Long.BYTES);
    }

    private static boolean pending(Path pair) throws IOException {
        try (var names = Files.list(pair)) {
            return names.anyMatch(name -> name.getFileName().toString().startsWith("pending-"));
        }
    }

    @Test
    void aDryRunListsWhatItWouldCopyAndDeleteAndChangesNothing() throws InterruptedException {
        src.file("keep", "k".getBytes(), T0);
        src.file("d/new", "new".getBytes(), T0);
        dst.file("keep", "k".getBytes(), T0);
        dst.file("old/gone", "gone".getBytes(), T0);
        open();
        TransferOptions options = TransferOptions.builder().blockSize(4096).bufferPoolBytes(1 << 20).dryRun(true).sync(deletes(-1)).build();
        JobId id = service.submit(new JobSpec(JobKind.SYNC, "mem://src", "mem://dst", Map.of(), Map.of(), options)).id();

        JobSummary summary = service.await(id, Duration.ofSeconds(60)).orElseThrow(() -> new AssertionError("job did not end in 60 s"));

        assertThat(summary.state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(dst.filePaths()).containsExactly("keep", "old/gone");
        assertThat(service.files(id, Optional.of(FileOutcome.DELETED), 0, 10).items())
                .extracting(FileResult::path, result -> result.message().orElse(""))
                .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("old/gone", "dry run: would delete"),
                        org.assertj.core.groups.Tuple.tuple("old", "dry run: would delete"));
        assertThat(service.files(id, Optional.of(FileOutcome.TRANSFERRED), 0, 10).items())
                .extracting(FileResult::path, result -> result.message().orElse(""))
                .contains(org.assertj.core.groups.Tuple.tuple("d/new", "dry run: would copy"));
    }
}
