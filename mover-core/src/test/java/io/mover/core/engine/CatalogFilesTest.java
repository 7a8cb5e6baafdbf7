package io.mover.core.engine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.mover.spi.Attributes;
import io.mover.spi.Entry;
import io.mover.spi.EntryType;
import io.mover.spi.RelativePath;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The catalog's two files: a folder's entries come back as they were recorded, in order, also when its subfolders
 * were walked in the middle of it and when it is larger than a segment; an empty folder is in the catalog (read as
 * empty, not listed), a folder never entered is not.
 */
@Timeout(60)
class CatalogFilesTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    @TempDir
    Path generation;

    private static Entry file(String path, long size) {
        return new Entry(RelativePath.of(path), EntryType.FILE, size, T0.plusNanos(size), Attributes.ofMode(0644));
    }

    @Test
    void foldersComeBackWholeAndInOrderAcrossSegmentsAndNesting() throws Exception {
        List<Entry> big = new ArrayList<>();
        List<Entry> bigAfterSub = new ArrayList<>();
        try (CatalogFiles.Writer writer = new CatalogFiles.Writer(generation)) {
            writer.enter(RelativePath.ROOT);
            writer.enter(RelativePath.of("big"));
            // enough entries for several segments before the subfolder, and more after it
            for (int i = 0; i < 5_000; i++) {
                Entry entry = file("big/file-" + i + ".dat", i);
                big.add(entry);
                writer.entry(entry);
            }
            writer.enter(RelativePath.of("big/sub"));
            writer.entry(file("big/sub/x", 1));
            writer.leave();
            writer.enter(RelativePath.of("big/empty"));
            writer.leave();
            for (int i = 5_000; i < 6_000; i++) {
                Entry entry = file("big/file-" + i + ".dat", i);
                bigAfterSub.add(entry);
                writer.entry(entry);
            }
            writer.leave();
            writer.entry(file("top.txt", 7));
            writer.leave();
            assertThat(writer.hasOpenFolders()).isFalse();
        }
        assertThat(Files.size(generation.resolve(CatalogFiles.ENTRIES))).as("larger than a segment").isGreaterThan(3L * CatalogFiles.SEGMENT);

        CatalogFiles.Opened read = CatalogFiles.open(generation);
        Map<String, long[]> index = read.index().folders();
        assertThat(index).containsOnlyKeys("", "big", "big/sub", "big/empty");
        assertThat(index.get("big").length / 2).as("segments of big").isGreaterThan(2);
        List<Entry> expectedBig = new ArrayList<>(big);
        expectedBig.addAll(bigAfterSub);
        assertThat(read(read, "big")).isEqualTo(expectedBig);
        assertThat(read(read, "big/sub")).containsExactly(file("big/sub/x", 1));
        assertThat(read(read, "big/empty")).isEmpty();
        assertThat(read(read, "")).containsExactly(file("top.txt", 7));
        read.close();
    }

    @Test
    void aGenerationWithoutAnIndexHasNoFolders() throws Exception {
        assertThat(CatalogFiles.readIndex(generation)).isEqualTo(CatalogFiles.Index.EMPTY);
    }

    /**
     * A sync opens the entries and reads the index: another sync that commits in between replaces both files, and the
     * old index's offsets into the new entries would be another generation's bytes. Declined instead.
     */
    @Test
    void entriesOfAnotherGenerationAreDeclined() throws Exception {
        write(generation, "a");
        Path next = Files.createDirectory(generation.resolveSibling(generation.getFileName() + "-next"));
        write(next, "b");
        Files.move(next.resolve(CatalogFiles.ENTRIES), generation.resolve(CatalogFiles.ENTRIES), StandardCopyOption.REPLACE_EXISTING);

        assertThat(CatalogFiles.open(generation)).isSameAs(CatalogFiles.Opened.NONE);
        Files.delete(generation.resolve(CatalogFiles.ENTRIES));
        assertThat(CatalogFiles.open(generation)).isSameAs(CatalogFiles.Opened.NONE);
    }

    /** The channel opened with the index keeps reading its generation after another sync replaced the files. */
    @Test
    void anOpenedGenerationReadsItsOwnEntriesAfterAReplace() throws Exception {
        write(generation, "a");
        try (CatalogFiles.Opened opened = CatalogFiles.open(generation)) {
            Path next = Files.createDirectory(generation.resolveSibling(generation.getFileName() + "-next"));
            write(next, "b");
            Files.move(next.resolve(CatalogFiles.ENTRIES), generation.resolve(CatalogFiles.ENTRIES), StandardCopyOption.REPLACE_EXISTING);
            assertThat(read(opened, "")).containsExactly(file("a", 1));
            assertThat(read(opened, "")).as("read twice through one channel").containsExactly(file("a", 1));
        }
    }

    /** A folder copied whole from another generation reads back as it was there. */
    @Test
    void aCopiedFolderReadsBackTheSame() throws Exception {
        write(generation, "a");
        Path next = Files.createDirectory(generation.resolveSibling(generation.getFileName() + "-copy"));
        try (CatalogFiles.Opened from = CatalogFiles.open(generation); CatalogFiles.Writer writer = new CatalogFiles.Writer(next)) {
            writer.copy("", from.entries(), from.index().folders().get(""));
            writer.enter(RelativePath.of("d"));
            writer.entry(file("d/x", 3));
            writer.leave();
        }
        try (CatalogFiles.Opened copied = CatalogFiles.open(next)) {
            assertThat(read(copied, "")).containsExactly(file("a", 1));
            assertThat(read(copied, "d")).containsExactly(file("d/x", 3));
        }
    }

    private static void write(Path to, String name) throws Exception {
        try (CatalogFiles.Writer writer = new CatalogFiles.Writer(to)) {
            writer.enter(RelativePath.ROOT);
            writer.entry(file(name, 1));
            writer.leave();
        }
    }

    private static List<Entry> read(CatalogFiles.Opened opened, String folder) {
        List<Entry> entries = new ArrayList<>();
        CatalogFiles.entries(opened.entries(), opened.index().folders().get(folder), RelativePath.of(folder), IllegalStateException::new)
                .forEachRemaining(entries::add);
        return entries;
    }

    /**
     * Names beyond ASCII (decoded the slow way), a link's target, and an entry longer than a segment (its attributes),
     * which the reader's buffer must grow for, after entries that leave it straddling two segments.
     */
    @Test
    void entriesOfEveryShapeComeBack() throws Exception {
        Entry link = new Entry(RelativePath.of("d/l\u00e9\u65e5\u672c\ud83d\ude00"), EntryType.SYMLINK, 0, T0,
                new Attributes(java.util.OptionalInt.empty(), java.util.Optional.of(T0), java.util.Optional.of("../t\u00fc\u0000"), Map.of(), Map.of()));
        Entry huge = new Entry(RelativePath.of("d/huge"), EntryType.FILE, 5, T0, new Attributes(java.util.OptionalInt.of(0600),
                java.util.Optional.empty(), java.util.Optional.empty(), Map.of("sha256", "ab"), Map.of("user.a", "x".repeat(40_000), "user.b", "y".repeat(40_000))));
        List<Entry> expected = new ArrayList<>();
        try (CatalogFiles.Writer writer = new CatalogFiles.Writer(generation)) {
            writer.enter(RelativePath.of("d"));
            for (int i = 0; i < 500; i++) {
                expected.add(file("d/f" + i, i));
            }
            expected.add(link);
            expected.add(huge);
            expected.add(file("d/z", 1));
            for (Entry entry : expected) {
                writer.entry(entry);
            }
            writer.leave();
        }
        try (CatalogFiles.Opened opened = CatalogFiles.open(generation)) {
            assertThat(read(opened, "d")).isEqualTo(expected);
        }
    }
}
