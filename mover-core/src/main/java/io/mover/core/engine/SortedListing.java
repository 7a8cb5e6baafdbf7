package io.mover.core.engine;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;
import java.util.stream.Stream;

import io.mover.spi.Entry;

/**
 * One directory's listing sorted by name, so the sync can merge the two sides as sorted streams.
 * Listings are not sorted by the endpoints (the SPI promises "any order"), so they are sorted here: in
 * memory up to {@code spillAt} entries, beyond that as sorted runs in scratch files merged on reading
 * (an external merge sort), so a directory of millions of entries costs a bounded heap.
 * Built on one thread, read on one thread; not thread-safe.
 */
final class SortedListing implements AutoCloseable {
    /** Written out, not {@code Comparator.comparing}: its key function was two more calls per comparison, most of a sort's CPU with C1. */
    static final Comparator<Entry> BY_NAME = (a, b) -> a.path().name().compareTo(b.path().name());
    static final SortedListing EMPTY = new SortedListing(List.of(), List.of(), 0);

    private final List<Entry> memory;
    private final List<Path> runs;
    private final long size;
    private final List<DataInputStream> open = new ArrayList<>();

    private SortedListing(List<Entry> memory, List<Path> runs, long size) {
        this.memory = memory;
        this.runs = runs;
        this.size = size;
    }

    /** Drains and closes {@code listing}. */
    static SortedListing of(Stream<Entry> listing, int spillAt, Path scratch) {
        // sized for a folder of a hundred or so: growing from ten entries copied the list six times per such folder, a
        // tenth of the listing threads' own CPU in a no-change sync
        List<Entry> batch = new ArrayList<>(Math.min(spillAt, 128));
        List<Path> runs = new ArrayList<>();
        long size = 0;
        try (listing) {
            Iterator<Entry> entries = listing.iterator();
            while (entries.hasNext()) {
                batch.add(entries.next());
                size++;
                if (batch.size() >= spillAt) {
                    runs.add(writeRun(batch, scratch));
                    batch.clear();
                }
            }
            batch.sort(BY_NAME);
            return new SortedListing(batch, runs, size);
        }
        catch (IOException e) {
            runs.forEach(SortedListing::deleteQuietly);
            throw EntrySpool.spillFailed(e);
        }
        catch (RuntimeException e) {
            runs.forEach(SortedListing::deleteQuietly);
            throw e;
        }
    }

    long size() {
        return size;
    }

    boolean spilled() {
        return !runs.isEmpty();
    }

    /** The entries in name order; call once. */
    Iterator<Entry> iterator() {
        if (runs.isEmpty()) {
            return memory.iterator();
        }
        PriorityQueue<Head> heads = new PriorityQueue<>(Comparator.comparing((Head h) -> h.entry, BY_NAME));
        if (!memory.isEmpty()) {
            Iterator<Entry> inMemory = memory.iterator();
            heads.add(new Head(inMemory.next(), inMemory::hasNext, inMemory::next));
        }
        try {
            for (Path run : runs) {
                DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(run), 1 << 15));
                open.add(in);
                Entry first = readOrNull(in);
                if (first != null) {
                    heads.add(new Head(first, () -> true, () -> readOrNull(in)));
                }
            }
        }
        catch (IOException e) {
            throw EntrySpool.spillFailed(e);
        }
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return !heads.isEmpty();
            }

            @Override
            public Entry next() {
                Head head = heads.poll();
                if (head == null) {
                    throw new NoSuchElementException();
                }
                Entry result = head.entry;
                if (head.more.getAsBoolean()) {
                    Entry following = head.next.get();
                    if (following != null) {
                        heads.add(new Head(following, head.more, head.next));
                    }
                }
                return result;
            }
        };
    }

    @Override
    public void close() {
        for (DataInputStream in : open) {
            try {
                in.close();
            }
            catch (IOException e) {
                // a read-only run file, deleted next
            }
        }
        runs.forEach(SortedListing::deleteQuietly);
    }

    private record Head(Entry entry, java.util.function.BooleanSupplier more, java.util.function.Supplier<Entry> next) {
    }

    private static Path writeRun(List<Entry> batch, Path scratch) throws IOException {
        batch.sort(BY_NAME);
        Files.createDirectories(scratch);
        Path run = Files.createTempFile(scratch, "listing", ".run");
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(run), 1 << 16))) {
            for (Entry entry : batch) {
                EntryFormat.write(out, entry);
            }
        }
        return run;
    }

    private static Entry readOrNull(DataInputStream in) {
        try {
            return EntryFormat.read(in);
        }
        catch (EOFException end) {
            return null;
        }
        catch (IOException e) {
            throw EntrySpool.spillFailed(e);
        }
    }

    private static void deleteQuietly(Path run) {
        try {
            Files.deleteIfExists(run);
        }
        catch (IOException e) {
            // scratch space, removed with the job's scratch directory
        }
    }
}
