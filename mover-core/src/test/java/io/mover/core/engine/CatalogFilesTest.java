package io.mover.core.engine;

import java.io.DataInputStream;
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
            for (int i = 0; i < 3_000; i++) {
                Entry entry = file("big/file-" + i + ".dat", i);
                big.add(entry);
                writer.entry(entry);
            }
            writer.enter(RelativePath.of("big/sub"));
            writer.entry(file("big/sub/x", 1));
            writer.leave();
            writer.enter(RelativePath.of("big/empty"));
            writer.leave();
            for (int i = 3_000; i < 4_000; i++) {
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

        CatalogFiles.Index read = CatalogFiles.readIndex(generation);
        Map<String, long[]> index = read.folders();
        assertThat(index).containsOnlyKeys("", "big", "big/sub", "big/empty");
        assertThat(index.get("big").length / 2).as("segments of big").isGreaterThan(2);
        List<Entry> expectedBig = new ArrayList<>(big);
        expectedBig.addAll(bigAfterSub);
        assertThat(read(read, index.get("big"))).isEqualTo(expectedBig);
        assertThat(read(read, index.get("big/sub"))).containsExactly(file("big/sub/x", 1));
        assertThat(read(read, index.get("big/empty"))).isEmpty();
        assertThat(read(read, index.get(""))).containsExactly(file("top.txt", 7));
    }

    @Test
    void aGenerationWithoutAnIndexHasNoFolders() throws Exception {
        assertThat(CatalogFiles.readIndex(generation)).isEqualTo(CatalogFiles.Index.EMPTY);
    }

    /**
     * A sync reads the index once and the entries folder by folder: another sync that commits in between replaces both
     * files, and the old index's offsets into the new entries would be another generation's bytes. Declined instead.
     */
    @Test
    void entriesOfAnotherGenerationAreDeclined() throws Exception {
        write(generation, "a");
        CatalogFiles.Index before = CatalogFiles.readIndex(generation);
        Path next = Files.createDirectory(generation.resolveSibling(generation.getFileName() + "-next"));
        write(next, "b");
        Files.move(next.resolve(CatalogFiles.ENTRIES), generation.resolve(CatalogFiles.ENTRIES), StandardCopyOption.REPLACE_EXISTING);

        assertThat(CatalogFiles.open(generation, before, before.folders().get(""))).isNull();
        Files.delete(generation.resolve(CatalogFiles.ENTRIES));
        assertThat(CatalogFiles.open(generation, before, before.folders().get(""))).isNull();
    }

    private static void write(Path to, String name) throws Exception {
        try (CatalogFiles.Writer writer = new CatalogFiles.Writer(to)) {
            writer.enter(RelativePath.ROOT);
            writer.entry(file(name, 1));
            writer.leave();
        }
    }

    private List<Entry> read(CatalogFiles.Index index, long[] segments) throws Exception {
        List<Entry> entries = new ArrayList<>();
        try (DataInputStream in = CatalogFiles.open(generation, index, segments)) {
            EntryFormat.entries(in, e -> new IllegalStateException(e)).forEachRemaining(entries::add);
        }
        return entries;
    }
}
