package io.mover.core.engine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

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

/** The sync's change matrix, guards, filters and dry run, on the in-memory endpoints through the real engine. */
@Timeout(60)
class SyncTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    @TempDir
    Path scratch;

    private final MemoryPlugin plugin = new MemoryPlugin();
    private final TransferEngine engine = new TransferEngine(PluginRegistry.of(List.of(plugin), "test"), Clock.systemUTC());
    private final MemoryStore src = plugin.store("src");
    private final MemoryStore dst = plugin.store("dst");
    private final List<String> dryRun = new CopyOnWriteArrayList<>();

    private JobSummary sync(SyncOptions sync) {
        return sync(options().sync(sync).build(), JobListener.NONE);
    }

    private JobSummary sync(TransferOptions options, JobListener listener) {
        JobSpec spec = new JobSpec(JobKind.SYNC, "mem://src", "mem://dst", Map.of(), Map.of(), options);
        try (PreparedJob job = engine.prepare(spec, "job1", scratch)) {
            return engine.run(job, listener, new CancellationToken());
        }
    }

    private static TransferOptions.Builder options() {
        return TransferOptions.builder().blockSize(4096).bufferPoolBytes(1 << 20).retries(0, Duration.ofMillis(1))
                .progressInterval(Duration.ofMillis(20));
    }

    private static SyncOptions deletes() {
        return SyncOptions.DEFAULTS.withDeletes(SyncOptions.DeleteMode.TRUE);
    }

    private static SyncOptions with(SyncOptions base, long maxDelete, boolean force) {
        return new SyncOptions(base.deletes(), maxDelete, base.compare(), force, base.filesFrom(), base.minSize(), base.maxSize(),
                base.minAge(), base.maxAge());
    }

    @Test
    void aSyncWithNothingToDoNamesNoBottleneck() {
        seed();
        assertThat(sync(SyncOptions.DEFAULTS).bottleneck()).isPresent();
        JobSummary again = sync(SyncOptions.DEFAULTS);
        assertThat(again.filesTransferred()).isZero();
        // the sink's finish still runs; its time named COMMIT the bottleneck of a job that moved nothing
        assertThat(dst.finishes.get()).isEqualTo(2);
        assertThat(again.bottleneck()).isEmpty();
    }

    private void seed() {
        src.file("a.txt", "alpha".getBytes(), T0);
        src.file("same-size.txt", "12345".getBytes(), T0);
        src.file("grows.txt", "x".getBytes(), T0);
        src.file("d1/b.txt", "beta".getBytes(), T0);
        src.file("d1/d2/c.txt", "gamma".getBytes(), T0);
        src.file("gone.txt", "bye".getBytes(), T0);
        src.file("old-name.txt", "renamed".getBytes(), T0);
        src.file("flip", "a file, later a folder".getBytes(), T0);
        src.dir("d1/d2", T0.plusSeconds(7));
        src.dir("d1", T0.plusSeconds(8));
        src.dir("empty", T0.plusSeconds(9));
    }

    private SyncReport report(JobSummary summary) {
        return summary.sync().orElseThrow();
    }

    @Test
    void aFirstSyncCopiesEverythingAndASecondFindsNothingToDo() {
        seed();
        JobSummary first = sync(deletes());
        assertThat(first.state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(first.filesTransferred()).isEqualTo(8);
        assertThat(dst.filePaths()).isEqualTo(src.filePaths());
        assertThat(dst.nodes.get(RelativePath.of("empty")).type()).isEqualTo(EntryType.DIRECTORY);
        // folder times set after their contents were written
        assertThat(dst.nodes.get(RelativePath.of("d1")).mtime()).isEqualTo(T0.plusSeconds(8));
        assertThat(dst.nodes.get(RelativePath.of("d1/d2")).mtime()).isEqualTo(T0.plusSeconds(7));
        assertThat(report(first).sourceFiles()).isEqualTo(8);
        assertThat(report(first).destinationFiles()).isZero();

        int commits = dst.commitCount();
        JobSummary second = sync(deletes());
        assertThat(second.filesTransferred()).isZero();
        assertThat(dst.commitCount()).isEqualTo(commits);
        SyncReport again = report(second);
        assertThat(again.unchanged()).isEqualTo(8);
        assertThat(again.sourceFiles()).isEqualTo(8);
        assertThat(again.destinationFiles()).isEqualTo(8);
        assertThat(again.toCopy()).isZero();
        assertThat(again.deleted()).isZero();
        assertThat(again.planning()).isFalse();
    }

    @Test
    void theChangeMatrix() {
        seed();
        sync(deletes());
        src.file("new.txt", "new".getBytes(), T0);                          // new
        src.file("same-size.txt", "54321".getBytes(), T0.plusSeconds(60));  // same size, another mtime
        src.file("grows.txt", "xxxxxxxx".getBytes(), T0);                   // size changed, same mtime
        src.delete(RelativePath.of("gone.txt"), false);                      // deleted
        src.delete(RelativePath.of("old-name.txt"), false);                  // renamed
        src.file("new-name.txt", "renamed".getBytes(), T0);
        src.delete(RelativePath.of("flip"), false);                          // file replaced by a folder
        src.file("flip/inside.txt", "now a folder".getBytes(), T0);

        JobSummary summary = sync(deletes());

        assertThat(summary.state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(summary.filesTransferred()).isEqualTo(5);
        assertThat(report(summary).deleted()).isEqualTo(3);
        assertThat(dst.filePaths()).isEqualTo(src.filePaths());
        for (String path : src.filePaths()) {
            assertThat(dst.data(path)).as(path).isEqualTo(src.data(path));
        }
        assertThat(dst.nodes.get(RelativePath.of("same-size.txt")).mtime()).isEqualTo(T0.plusSeconds(60));

        // and back: the folder becomes a file again
        src.delete(RelativePath.of("flip/inside.txt"), false);
        src.delete(RelativePath.of("flip"), false);
        src.file("flip", "a file again".getBytes(), T0);
        JobSummary back = sync(deletes());
        assertThat(back.filesTransferred()).isEqualTo(1);
        assertThat(dst.nodes.get(RelativePath.of("flip")).type()).isEqualTo(EntryType.FILE);
        assertThat(dst.data("flip")).isEqualTo("a file again".getBytes());
        assertThat(dst.nodes).doesNotContainKey(RelativePath.of("flip/inside.txt"));
    }

    @Test
    void withoutTheFlagNothingIsDeletedAndAFolderInTheWayIsAFailure() {
        seed();
        sync(deletes());
        src.delete(RelativePath.of("gone.txt"), false);
        src.delete(RelativePath.of("flip"), false);
        src.file("flip/inside.txt", "now a folder".getBytes(), T0);

        JobSummary summary = sync(SyncOptions.DEFAULTS);

        assertThat(dst.data("gone.txt")).isEqualTo("bye".getBytes());
        assertThat(summary.state()).isEqualTo(JobState.COMPLETED_WITH_ERRORS);
        assertThat(summary.failures()).singleElement().satisfies(f -> {
            assertThat(f.path()).isEqualTo("flip");
            assertThat(f.message()).contains("--delete-destination true");
        });
        assertThat(report(summary).toDelete()).isZero();
    }

    @Test
    void theMaxDeleteGuardStopsTheJobBeforeItDeletesOrCopiesAnything() {
        seed();
        sync(deletes());
        for (String path : List.of("a.txt", "grows.txt", "gone.txt")) {
            src.delete(RelativePath.of(path), false);
        }
        src.file("new.txt", "new".getBytes(), T0);
        Map<RelativePath, MemoryStore.Node> before = Map.copyOf(dst.nodes);

        JobSummary summary = sync(with(deletes(), 2, false));

        assertThat(summary.state()).isEqualTo(JobState.FAILED);
        assertThat(summary.errorCode()).contains(ErrorCode.INVALID_ARGUMENT);
        assertThat(summary.error().orElseThrow()).contains("more than 2 files").contains("--max-delete");
        assertThat(dst.nodes).isEqualTo(before);

        assertThat(sync(with(deletes(), 3, false)).state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(dst.filePaths()).isEqualTo(src.filePaths());
    }

    @Test
    void anEmptySourceDoesNotEmptyTheDestinationUnlessForced() {
        dst.file("keep/1.txt", "1".getBytes(), T0);
        dst.file("keep/2.txt", "2".getBytes(), T0);

        JobSummary refused = sync(deletes());

        assertThat(refused.state()).isEqualTo(JobState.FAILED);
        assertThat(refused.error().orElseThrow()).contains("the source lists no file").contains("--force");
        assertThat(dst.filePaths()).containsExactly("keep/1.txt", "keep/2.txt");

        assertThat(sync(with(deletes(), -1, true)).state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(dst.nodes.keySet()).containsExactly(RelativePath.ROOT);
    }

    @Test
    void aDryRunListsCopiesAndDeletesAndChangesNothing() {
        seed();
        sync(deletes());
        src.file("new.txt", "new".getBytes(), T0);
        src.delete(RelativePath.of("gone.txt"), false);
        src.delete(RelativePath.of("d1/d2/c.txt"), false);
        src.delete(RelativePath.of("d1/d2"), false);
        Map<RelativePath, MemoryStore.Node> before = Map.copyOf(dst.nodes);
        JobListener listener = new JobListener() {
            @Override
            public void onProgress(Progress progress) {}

            @Override
            public void onDryRun(String action, String path, long size) {
                dryRun.add(action + " " + path);
            }
        };

        JobSummary summary = sync(options().dryRun(true).sync(deletes()).build(), listener);

        assertThat(summary.state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(dryRun).containsExactlyInAnyOrder("copy new.txt", "delete gone.txt", "delete d1/d2/c.txt", "delete d1/d2");
        assertThat(dst.nodes).isEqualTo(before);
    }

    @Test
    void filesChangedAfterTheyWereListedAreNotDeleted() {
        seed();
        sync(deletes());
        src.delete(RelativePath.of("gone.txt"), false);
        src.delete(RelativePath.of("a.txt"), false);
        JobListener writerMeanwhile = new JobListener() {
            @Override
            public void onProgress(Progress progress) {}

            @Override
            public boolean confirmDeletes(long files) {
                assertThat(files).isEqualTo(2);
                dst.file("gone.txt", "written meanwhile".getBytes(), T0.plusSeconds(99));
                return true;
            }
        };

        JobSummary summary = sync(options().sync(SyncOptions.DEFAULTS.withDeletes(SyncOptions.DeleteMode.PROMPT)).build(), writerMeanwhile);

        assertThat(dst.data("gone.txt")).isEqualTo("written meanwhile".getBytes());
        assertThat(dst.data("a.txt")).isNull();
        assertThat(report(summary).deleted()).isEqualTo(1);
        assertThat(report(summary).warnings()).anyMatch(w -> w.contains("changed after they were listed"));
    }

    @Test
    void aPromptNobodyAnswersDeletesNothing() {
        seed();
        sync(deletes());
        src.delete(RelativePath.of("gone.txt"), false);

        JobSummary summary = sync(SyncOptions.DEFAULTS.withDeletes(SyncOptions.DeleteMode.PROMPT));

        assertThat(dst.data("gone.txt")).isNotNull();
        assertThat(report(summary).warnings()).anyMatch(w -> w.contains("deletes declined"));
    }

    @Test
    void excludedFilesAreNeitherCopiedNorDeleted() {
        seed();
        src.file("skip.tmp", "tmp".getBytes(), T0);
        dst.file("local.tmp", "mine".getBytes(), T0);

        JobSummary summary = sync(options().excludes(List.of("*.tmp", "d1")).sync(deletes()).build(), JobListener.NONE);

        assertThat(summary.state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(dst.data("skip.tmp")).isNull();
        assertThat(dst.data("local.tmp")).isEqualTo("mine".getBytes());
        assertThat(dst.nodes).doesNotContainKey(RelativePath.of("d1"));
    }

    @Test
    void sizeAgeAndFilesFromFilters() throws Exception {
        Instant now = Instant.now();
        src.file("small", new byte[10], now.minus(Duration.ofDays(2)));
        src.file("big", new byte[5000], now.minus(Duration.ofDays(2)));
        src.file("recent", new byte[100], now.minus(Duration.ofMinutes(1)));
        src.file("ancient", new byte[100], now.minus(Duration.ofDays(400)));
        src.file("dir/listed", new byte[100], now.minus(Duration.ofDays(2)));

        sync(new SyncOptions(SyncOptions.DeleteMode.FALSE, -1, SyncOptions.ComparePolicy.SIZE_MTIME, false, Optional.empty(),
                50, 1000, Optional.of(Duration.ofHours(1)), Optional.of(Duration.ofDays(30))));
        assertThat(dst.filePaths()).containsExactly("dir/listed");

        Path list = Files.writeString(scratch.resolve("list.txt"), "# the files to sync\nsmall\n/ancient\n");
        sync(new SyncOptions(SyncOptions.DeleteMode.FALSE, -1, SyncOptions.ComparePolicy.SIZE_MTIME, false, Optional.of(list.toString()),
                0, -1, Optional.empty(), Optional.empty()));
        assertThat(dst.filePaths()).containsExactly("ancient", "dir/listed", "small");
    }

    @Test
    void filtersThatMatchNothingAreWarnedAbout() {
        seed();
        JobSummary summary = sync(options().includes(List.of("*.nothing")).build(), JobListener.NONE);
        assertThat(report(summary).warnings()).anyMatch(w -> w.contains("filters match no file"));
    }

    @Test
    void comparePolicies() {
        src.file("f", "aaaa".getBytes(), T0);
        sync(SyncOptions.DEFAULTS);
        // same size, another time: size-only leaves it; the default copies it
        src.file("f", "bbbb".getBytes(), T0.plusSeconds(5));
        sync(new SyncOptions(SyncOptions.DeleteMode.FALSE, -1, SyncOptions.ComparePolicy.SIZE_ONLY, false, Optional.empty(), 0, -1,
                Optional.empty(), Optional.empty()));
        assertThat(dst.data("f")).isEqualTo("aaaa".getBytes());
        // same size, same time, other content: only checksums see it
        src.file("f", "cccc".getBytes(), T0);
        dst.file("f", "aaaa".getBytes(), T0);
        assertThat(sync(SyncOptions.DEFAULTS).filesTransferred()).isZero();
        JobSummary hashed = sync(new SyncOptions(SyncOptions.DeleteMode.FALSE, -1, SyncOptions.ComparePolicy.CHECKSUM, false,
                Optional.empty(), 0, -1, Optional.empty(), Optional.empty()));
        assertThat(hashed.filesTransferred()).isEqualTo(1);
        assertThat(dst.data("f")).isEqualTo("cccc".getBytes());
    }

    @Test
    void overlappingLocationsAndKeptFilesAreRefused() {
        src.file("f", "x".getBytes(), T0);
        JobSpec inside = new JobSpec(JobKind.SYNC, "mem://src/sub", "mem://src", Map.of(), Map.of(), options().build());
        assertThatThrownBy(() -> engine.prepare(inside, "k", scratch)).isInstanceOf(MoverException.class)
                .hasMessageContaining("is inside the destination");
        JobSpec keep = new JobSpec(JobKind.SYNC, "mem://src", "mem://dst", Map.of(), Map.of(),
                options().overwrite(OverwritePolicy.FALSE).build());
        assertThatThrownBy(() -> engine.prepare(keep, "k", scratch)).hasMessageContaining("drop overwrite false");
    }

    @Test
    void progressCarriesBothSidesScanningCounters() {
        seed();
        List<Progress> seen = new CopyOnWriteArrayList<>();
        sync(options().sync(deletes()).build(), seen::add);
        Progress last = seen.getLast();
        assertThat(last.sync()).isPresent();
        assertThat(last.sync().get().sourceFiles()).isEqualTo(8);
        assertThat(last.sync().get().planning()).isFalse();
    }
}
