package io.mover.jobstore.service;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.mover.jobstore.NewUnit;
import io.mover.spi.Attributes;
import io.mover.spi.Entry;
import io.mover.spi.EntryType;
import io.mover.spi.RelativePath;

import static org.assertj.core.api.Assertions.assertThat;

class UnitCutterTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00.123456789Z");

    @Test
    void cutsByEntriesAndBytesAndKeepsOrder() {
        List<NewUnit> units = new ArrayList<>();
        UnitCutter cutter = new UnitCutter(5, 3, 1000, units::add);
        cutter.add(Entry.directory(RelativePath.of("a"), T0));
        cutter.add(Entry.file(RelativePath.of("a/1"), 100, T0));
        cutter.add(Entry.file(RelativePath.of("a/2"), 100, T0));
        cutter.add(Entry.file(RelativePath.of("a/3"), 900, T0)); // entries full: new unit
        cutter.add(Entry.file(RelativePath.of("a/4"), 200, T0)); // bytes over: new unit
        cutter.add(Entry.file(RelativePath.of("big"), 5000, T0)); // larger than a unit: alone
        cutter.flush();
        cutter.flush();

        assertThat(units).extracting(NewUnit::seq).containsExactly(5L, 6L, 7L, 8L);
        assertThat(units).extracting(NewUnit::fileCount).containsExactly(2L, 1L, 1L, 1L);
        assertThat(units).extracting(NewUnit::byteCount).containsExactly(200L, 900L, 200L, 5000L);
        assertThat(Manifests.decode(units.get(0).manifest())).extracting(e -> e.path().toString()).containsExactly("a", "a/1", "a/2");
    }

    @Test
    void manifestsRoundTripTypeSizeTimeModeAndLinkTarget() {
        List<Entry> entries = List.of(
                new Entry(RelativePath.of("d/ü file"), EntryType.FILE, 42, T0, Attributes.ofMode(0640)),
                new Entry(RelativePath.of("d/link"), EntryType.SYMLINK, 0, T0, Attributes.NONE.withSymlinkTarget("../x")),
                Entry.directory(RelativePath.ROOT, T0));
        assertThat(Manifests.decode(Manifests.encode(entries))).isEqualTo(entries);
    }
}
