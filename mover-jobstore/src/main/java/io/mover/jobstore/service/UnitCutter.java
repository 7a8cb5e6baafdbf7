package io.mover.jobstore.service;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import io.mover.jobstore.NewUnit;
import io.mover.spi.Entry;

/**
 * Cuts the crawl into units: at most {@code maxEntries} entries (directories included: they travel in
 * manifests so that empty folders are created and folder times set) or {@code maxBytes} of files, whichever
 * comes first. A file larger than {@code maxBytes} is a unit of its own. Not thread-safe: the driver's.
 */
final class UnitCutter {
    static final int MAX_ENTRIES = 1000;
    static final long MAX_BYTES = 4L << 30;

    private final int maxEntries;
    private final long maxBytes;
    private final Consumer<NewUnit> sink;
    private final List<Entry> entries = new ArrayList<>();
    private long nextSeq;
    private long files;
    private long bytes;

    UnitCutter(long firstSeq, int maxEntries, long maxBytes, Consumer<NewUnit> sink) {
        this.nextSeq = firstSeq;
        this.maxEntries = maxEntries;
        this.maxBytes = maxBytes;
        this.sink = sink;
    }

    /** The next unit's seq is {@code seq}: the units before it were made by someone else (a sync's deletes). */
    void skipTo(long seq) {
        nextSeq = Math.max(nextSeq, seq);
    }

    void add(Entry entry) {
        long size = entry.isDirectory() ? 0 : entry.size();
        if (!entries.isEmpty() && (entries.size() >= maxEntries || bytes + size > maxBytes)) {
            flush();
        }
        entries.add(entry);
        if (!entry.isDirectory()) {
            files++;
            bytes += size;
        }
    }

    /** Emits what is pending as a unit (nothing when empty). */
    void flush() {
        if (entries.isEmpty()) {
            return;
        }
        sink.accept(new NewUnit(nextSeq++, files, bytes, Manifests.encode(entries)));
        entries.clear();
        files = 0;
        bytes = 0;
    }
}
