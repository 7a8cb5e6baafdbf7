package io.mover.core.engine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.mover.core.plugin.PluginRegistry;
import io.mover.spi.RelativePath;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code --catalog}: a sync reads the destination from the last successful sync's record instead of listing it, keeps
 * that record up to date, drops it when a sync fails, and (as documented) does not see changes made behind its back.
 */
@Timeout(60)
class SyncCatalogTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    @TempDir
    Path scratch;

    @TempDir
    Path catalogs;

    private final MemoryPlugin plugin = new MemoryPlugin();
    private final MemoryStore src = plugin.store("src");
    private final MemoryStore dst = plugin.store("dst");
    private int runs;

    private JobSummary sync(boolean catalog, boolean dryRun) {
        TransferEngine engine = new TransferEngine(PluginRegistry.of(List.of(plugin), "test"), Clock.systemUTC(), catalogs);
        TransferOptions options = TransferOptions.builder().blockSize(4096).bufferPoolBytes(1 << 20).retries(0, Duration.ofMillis(1))
                .dryRun(dryRun).sync(SyncOptions.DEFAULTS.withDeletes(SyncOptions.DeleteMode.TRUE).withCatalog(catalog)).build();
        JobSpec spec = new JobSpec(JobKind.SYNC, "mem://src", "mem://dst", Map.of(), Map.of(), options);
        try (PreparedJob job = engine.prepare(spec, "job" + runs++, scratch)) {
            return engine.run(job, JobListener.NONE, new CancellationToken());
        }
    }

    private JobSummary sync(boolean catalog) {
        return sync(catalog, false);
    }

    private void seed() {
        src.file("a.txt", "alpha".getBytes(), T0);
        src.file("d1/b.txt", "beta".getBytes(), T0);
        src.file("d1/d2/c.txt", "gamma".getBytes(), T0);
        src.file("d3/e.txt", "epsilon".getBytes(), T0);
        dst.file("stale/old.txt", "old".getBytes(), T0);
    }

    @Test
    void theSecondSyncDoesNotListTheDestinationAndStaysCorrect() {
        seed();
        JobSummary first = sync(true);
        assertThat(first.state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(first.sync().orElseThrow().warnings()).anyMatch(w -> w.contains("no catalog of this source and destination yet"));
        assertThat(dst.filePaths()).isEqualTo(src.filePaths());
        int listedBefore = dst.listCount();

        src.file("d1/b.txt", "beta, longer".getBytes(), T0.plusSeconds(60));
        src.file("d1/new.txt", "new".getBytes(), T0);
        src.file("d4/f.txt", "phi".getBytes(), T0);
        src.delete(RelativePath.of("d3"), true);
        JobSummary second = sync(true);

        assertThat(second.state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(dst.listCount()).as("no destination folder listed").isEqualTo(listedBefore);
        assertThat(second.filesTransferred()).isEqualTo(3);
        assertThat(second.sync().orElseThrow().deleted()).isEqualTo(1);
        assertThat(second.sync().orElseThrow().unchanged()).isEqualTo(2);
        assertThat(dst.filePaths()).isEqualTo(src.filePaths());
        assertThat(new String(dst.data("d1/b.txt"))).isEqualTo("beta, longer");

        JobSummary third = sync(true);
        assertThat(third.filesTransferred()).isZero();
        assertThat(third.sync().orElseThrow().unchanged()).isEqualTo(5);
        assertThat(dst.listCount()).isEqualTo(listedBefore);
    }

    @Test
    void aDestinationRootMadeAgainVoidsTheCatalog() {
        seed();
        dst.rootCreated = T0;
        assertThat(sync(true).state()).isEqualTo(JobState.SUCCEEDED);

        // the destination removed and made again behind mover's back (restored from an older copy): d1 is not there
        dst.rootCreated = T0.plusSeconds(3600);
        dst.delete(RelativePath.of("d1"), true);
        int listedBefore = dst.listCount();
        JobSummary second = sync(true);

        assertThat(second.state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(second.sync().orElseThrow().warnings()).anyMatch(w -> w.contains("root was created after the catalog was kept"));
        assertThat(dst.listCount()).as("the destination listed for real").isGreaterThan(listedBefore);
        assertThat(second.filesTransferred()).as("d1's two files copied again").isEqualTo(2);
        assertThat(dst.filePaths()).isEqualTo(src.filePaths());

        // the catalog kept by that sync is used by the next
        int listed = dst.listCount();
        JobSummary third = sync(true);
        assertThat(dst.listCount()).isEqualTo(listed);
        assertThat(third.filesTransferred()).isZero();
        assertThat(third.sync().orElseThrow().warnings()).anyMatch(w -> w.contains("read from the catalog"));
    }

    @Test
    void aChangeBehindMoversBackIsNotSeenWithTheCatalogAndIsWithout() {
        seed();
        assertThat(sync(true).state()).isEqualTo(JobState.SUCCEEDED);
        dst.delete(RelativePath.of("d1/b.txt"), false); // someone else deletes a file at the destination

        JobSummary withCatalog = sync(true);
        assertThat(withCatalog.filesTransferred()).as("the documented trade-off: the catalog says it is there").isZero();
        assertThat(dst.filePaths()).doesNotContain("d1/b.txt");

        JobSummary listed = sync(false);
        assertThat(listed.filesTransferred()).isEqualTo(1);
        assertThat(dst.filePaths()).isEqualTo(src.filePaths());
    }

    @Test
    void aFailedSyncDropsTheCatalogAndADryRunLeavesIt() throws Exception {
        seed();
        assertThat(sync(true).state()).isEqualTo(JobState.SUCCEEDED);
        int listed = dst.listCount();

        assertThat(sync(true, true).state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(dst.listCount()).as("a dry run reads the catalog too").isEqualTo(listed);
        assertThat(catalogFolders()).as("and leaves it").isNotEmpty();

        src.file("a.txt", "alpha, changed".getBytes(), T0.plusSeconds(60));
        src.failReads("a.txt", 100);
        assertThat(sync(true).state()).isEqualTo(JobState.COMPLETED_WITH_ERRORS);
        assertThat(catalogFolders()).as("no catalog after a failed sync").isEmpty();

        src.failReads("a.txt", 0);
        assertThat(sync(true).state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(dst.listCount()).as("without a catalog the destination is listed again").isGreaterThan(listed);
        assertThat(dst.filePaths()).isEqualTo(src.filePaths());
    }

    /**
     * A re-sync with nothing changed keeps the catalog's generation (not written again); one that copies, or only
     * deletes, writes a new one holding what the destination holds; a failed one leaves none.
     */
    @Test
    void anUnchangedSyncKeepsTheCatalogAndOneThatCopiesOrDeletesWritesIt() throws Exception {
        seed();
        assertThat(sync(true).state()).isEqualTo(JobState.SUCCEEDED);
        // the first sync walked the stale folder it deleted, and its generation has an empty record of it: the next
        // sync does not walk it, and writes a generation without it
        long first = generation();
        assertThat(sync(true).filesTransferred()).isZero();
        assertThat(generation()).isNotEqualTo(first);
        first = generation();
        assertThat(sync(true).filesTransferred()).isZero();
        assertThat(generation()).as("nothing changed: the same generation").isEqualTo(first);
        assertThat(catalogRecords()).isEqualTo(destination());
        try (var pairs = Files.list(catalogs)) {
            assertThat(pairs.flatMap(SyncCatalogTest::children).map(Path::getFileName).map(Path::toString)).as("no generation left pending")
                    .containsOnly("current");
        }

        // d3 comes after d1 and d1/d2 in the walk: those two are the same, copied from the old generation once d3 differs
        src.file("d3/e.txt", "epsilon, changed".getBytes(), T0.plusSeconds(60));
        assertThat(sync(true).filesTransferred()).isEqualTo(1);
        long copied = generation();
        assertThat(copied).as("a copy writes the catalog").isNotEqualTo(first);
        assertThat(catalogRecords()).isEqualTo(destination());

        // d1 differs from its first entry on: d1/d2 and d3, the same, are copied after the writer started
        src.file("d1/b.txt", "beta, changed".getBytes(), T0.plusSeconds(60));
        assertThat(sync(true).filesTransferred()).isEqualTo(1);
        assertThat(generation()).isNotEqualTo(copied);
        assertThat(catalogRecords()).isEqualTo(destination());
        copied = generation();

        src.delete(RelativePath.of("d1/d2/c.txt"), false);
        JobSummary deleting = sync(true);
        assertThat(deleting.sync().orElseThrow().deleted()).isEqualTo(1);
        assertThat(generation()).as("a delete alone writes the catalog").isNotEqualTo(copied);
        assertThat(catalogRecords()).isEqualTo(destination());
        // the file back as it was: a catalog still holding it would call it unchanged
        src.file("d1/d2/c.txt", "gamma".getBytes(), T0);
        assertThat(sync(true).filesTransferred()).isEqualTo(1);
        assertThat(catalogRecords()).isEqualTo(destination());

        long kept = generation();
        int listed = dst.listCount();
        assertThat(sync(true).filesTransferred()).isZero();
        assertThat(generation()).isEqualTo(kept);
        assertThat(dst.listCount()).as("still read from the catalog").isEqualTo(listed);

        src.file("a.txt", "alpha, changed".getBytes(), T0.plusSeconds(120));
        src.failReads("a.txt", 100);
        assertThat(sync(true).state()).isEqualTo(JobState.COMPLETED_WITH_ERRORS);
        assertThat(catalogFolders()).as("a failed sync commits no catalog").isEmpty();
    }

    /**
     * A folder the catalog has, walked while the destination has none there (its root gone, so nothing is listed): the
     * destination's folder is made empty, not as the catalog kept it, and the catalog must say so, or a file it still
     * holds would be called unchanged later and never copied.
     */
    @Test
    void aFolderWalkedWithNoDestinationListingIsNotCopiedFromTheCatalog() throws Exception {
        src.file("d/x.txt", "ex".getBytes(), T0);
        assertThat(sync(true).state()).isEqualTo(JobState.SUCCEEDED);

        // the destination removed altogether (a sink that knows no creation times), and d emptied at the source
        dst.delete(RelativePath.ROOT, true);
        src.delete(RelativePath.of("d/x.txt"), false);
        assertThat(sync(true).state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(catalogRecords()).as("the catalog holds what the destination holds").isEqualTo(destination());

        // the destination's root back, and the file back at the source as it was
        dst.dir("", T0);
        src.file("d/x.txt", "ex".getBytes(), T0);
        assertThat(sync(true).filesTransferred()).isEqualTo(1);
        assertThat(dst.filePaths()).isEqualTo(src.filePaths());
    }

    /**
     * A sync stopped mid-walk ({@code --max-delete}), run or planned for the job service: the catalog's entries file
     * it read and the generation it started writing are closed, not left open until the process ends.
     */
    @Test
    void aSyncStoppedWhilePlanningLeavesNoCatalogFileOpen() throws Exception {
        seed();
        assertThat(sync(true).state()).isEqualTo(JobState.SUCCEEDED);
        src.delete(RelativePath.of("d1"), true);
        TransferEngine engine = new TransferEngine(PluginRegistry.of(List.of(plugin), "test"), Clock.systemUTC(), catalogs);
        TransferOptions options = TransferOptions.builder().blockSize(4096).bufferPoolBytes(1 << 20).retries(0, Duration.ofMillis(1))
                .sync(new SyncOptions(SyncOptions.DeleteMode.TRUE, 0, SyncOptions.ComparePolicy.SIZE_MTIME, false, java.util.Optional.empty(),
                        0, -1, java.util.Optional.empty(), java.util.Optional.empty(), true)).build();
        JobSpec spec = new JobSpec(JobKind.SYNC, "mem://src", "mem://dst", Map.of(), Map.of(), options);

        try (PreparedJob job = engine.prepare(spec, "job" + runs++, scratch)) {
            assertThat(engine.run(job, JobListener.NONE, new CancellationToken()).state()).isEqualTo(JobState.FAILED);
        }
        assertThat(openUnder(catalogs)).as("after a run").isEmpty();

        assertThat(sync(true).state()).isEqualTo(JobState.SUCCEEDED); // a catalog again, to read
        src.delete(RelativePath.of("d3"), true);
        try (PreparedJob job = engine.prepare(spec, "job" + runs++, scratch)) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> engine.planSync(job, () -> false, (path, error) -> {}))
                    .hasMessageContaining("--max-delete");
        }
        assertThat(openUnder(catalogs)).as("after a plan for the job service").isEmpty();
    }

    /**
     * The sink's finish sends what it held back, and can fail after every file was handed to it: the job fails, and the
     * catalog recording those files as there must not be kept.
     */
    @Test
    void aSinkThatFailsToFinishDropsTheCatalog() throws Exception {
        seed();
        assertThat(sync(true).state()).isEqualTo(JobState.SUCCEEDED);
        src.file("d1/b.txt", "beta, changed".getBytes(), T0.plusSeconds(60));
        dst.finishFailure = new io.mover.spi.MoverException(io.mover.spi.ErrorCode.PLUGIN_FAILED, "the stream broke");

        assertThat(sync(true).state()).isEqualTo(JobState.FAILED);
        assertThat(catalogFolders()).as("no catalog after a failed sync").isEmpty();
    }

    /**
     * A symbolic link the run does not make ({@code --symlinks skip}, the default) is skipped at copy time: the catalog
     * must not hold it as at the destination, or a later {@code --symlinks preserve} sync would call it unchanged.
     */
    @Test
    void aLinkTheRunSkipsIsNotRecordedAsThere() throws Exception {
        seed();
        src.link("d1/link", T0);
        JobSummary first = sync(true);
        assertThat(first.state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(catalogPaths()).contains("d1/b.txt").doesNotContain("d1/link");

        assertThat(sync(true).state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(catalogPaths()).contains("d1/b.txt").doesNotContain("d1/link");

        // a file the catalog has, made a link at the source: the file is deleted and the link skipped, so neither is there
        src.file("d3/x", "ex".getBytes(), T0);
        assertThat(sync(true).state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(catalogPaths()).contains("d3/x");
        src.delete(RelativePath.of("d3/x"), false);
        src.link("d3/x", T0);
        assertThat(sync(true).state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(dst.filePaths()).doesNotContain("d3/x");
        assertThat(catalogPaths()).doesNotContain("d3/x");
    }

    /** Every entry the current catalog holds. */
    private List<String> catalogPaths() throws Exception {
        List<String> paths = new java.util.ArrayList<>();
        try (CatalogFiles.Opened opened = CatalogFiles.open(catalogFolders().getFirst())) {
            for (Map.Entry<String, long[]> folder : opened.index().folders().entrySet()) {
                CatalogFiles.entries(opened.entries(), folder.getValue(), RelativePath.of(folder.getKey()), IllegalStateException::new)
                        .forEachRemaining(e -> paths.add(e.path().toString()));
            }
        }
        return paths;
    }

    /** The files under {@code folder} this process holds open (Linux's /proc). */
    private static List<String> openUnder(Path folder) throws Exception {
        Path real = folder.toRealPath();
        try (var fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.map(fd -> {
                try {
                    return Files.readSymbolicLink(fd).toString();
                }
                catch (java.io.IOException e) {
                    return ""; // closed meanwhile
                }
            }).filter(target -> target.startsWith(real.toString())).toList();
        }
    }

    private static Stream<Path> children(Path folder) {
        try {
            return Files.list(folder).toList().stream();
        }
        catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The current generation's id. */
    private long generation() throws Exception {
        return CatalogFiles.id(catalogFolders().getFirst());
    }

    /** The files the current catalog holds, with their sizes. */
    private Map<String, Long> catalogRecords() throws Exception {
        Map<String, Long> files = new TreeMap<>();
        try (CatalogFiles.Opened opened = CatalogFiles.open(catalogFolders().getFirst())) {
            for (Map.Entry<String, long[]> folder : opened.index().folders().entrySet()) {
                CatalogFiles.entries(opened.entries(), folder.getValue(), RelativePath.of(folder.getKey()), IllegalStateException::new)
                        .forEachRemaining(e -> {
                            if (e.isFile()) {
                                files.put(e.path().toString(), e.size());
                            }
                        });
            }
        }
        return files;
    }

    private Map<String, Long> destination() {
        Map<String, Long> files = new TreeMap<>();
        dst.filePaths().forEach(path -> files.put(path, (long) dst.data(path).length));
        return files;
    }

    /** The folders of the pair's current catalog. */
    private List<Path> catalogFolders() throws Exception {
        try (var pairs = Files.list(catalogs)) {
            List<Path> current = pairs.map(pair -> pair.resolve("current")).filter(Files::isDirectory).toList();
            return current;
        }
    }
}
