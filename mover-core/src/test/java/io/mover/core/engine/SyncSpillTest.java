package io.mover.core.engine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mover.spi.Attributes;
import io.mover.spi.Entry;
import io.mover.spi.EntryType;
import io.mover.spi.RelativePath;

import static org.assertj.core.api.Assertions.assertThat;

/** Huge listings and plans go to disk and come back whole and in order. */
class SyncSpillTest {
    @TempDir
    Path scratch;

    private static Entry entry(int i) {
        Attributes attributes = new Attributes(OptionalInt.of(0640), Optional.empty(), Optional.empty(), Map.of("md5", "ab" + i), Map.of());
        return new Entry(RelativePath.of("dir/name-" + i), EntryType.FILE, i, Instant.ofEpochSecond(1_700_000_000L + i, i), attributes);
    }

    @Test
    void aListingLargerThanTheHeapBoundIsSortedOnDiskAndMerged() throws Exception {
        List<Entry> entries = new ArrayList<>(IntStream.range(0, 1000).mapToObj(SyncSpillTest::entry).toList());
        Collections.shuffle(entries, new java.util.Random(7));

        List<Entry> sorted = new ArrayList<>();
        try (SortedListing listing = SortedListing.of(entries.stream(), 64, scratch)) {
            assertThat(listing.spilled()).isTrue();
            assertThat(listing.size()).isEqualTo(1000);
            listing.iterator().forEachRemaining(sorted::add);
        }

        List<Entry> expected = new ArrayList<>(entries);
        expected.sort(SortedListing.BY_NAME);
        assertThat(sorted).isEqualTo(expected);
        try (var files = Files.list(scratch)) {
            assertThat(files).as("run files removed").isEmpty();
        }
    }

    @Test
    void aSmallListingStaysInMemory() {
        try (SortedListing listing = SortedListing.of(IntStream.of(3, 1, 2).mapToObj(SyncSpillTest::entry), 64, scratch)) {
            assertThat(listing.spilled()).isFalse();
            Iterator<Entry> it = listing.iterator();
            assertThat(it.next().path().name()).isEqualTo("name-1");
        }
    }

    @Test
    void aSpoolKeepsOrderAcrossMemoryAndDisk() {
        int count = EntrySpool.IN_MEMORY + 500;
        List<Entry> back = new ArrayList<>();
        try (EntrySpool spool = new EntrySpool(scratch, "t")) {
            for (int i = 0; i < count; i++) {
                spool.add(entry(i));
            }
            spool.forEach(back::add);
            assertThat(spool.size()).isEqualTo(count);
        }
        assertThat(back).hasSize(count);
        assertThat(back.get(count - 1)).isEqualTo(entry(count - 1));
        assertThat(back.get(EntrySpool.IN_MEMORY)).isEqualTo(entry(EntrySpool.IN_MEMORY));
    }
}
