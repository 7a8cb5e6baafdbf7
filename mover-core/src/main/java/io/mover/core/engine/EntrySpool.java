package io.mover.core.engine;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import io.mover.spi.Entry;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

/**
 * Entries appended in order and read back in that order: in memory up to a bound, then in a scratch
 * file, so a sync plan of millions of changes never sits in the heap. One writer, then readers; not
 * thread-safe.
 */
final class EntrySpool implements Iterable<Entry>, AutoCloseable {
    static final int IN_MEMORY = 20_000;

    private final Path scratch;
    private final String name;
    private final List<Entry> memory = new ArrayList<>();
    private Path file;
    private DataOutputStream out;
    private long size;

    EntrySpool(Path scratch, String name) {
        this.scratch = scratch;
        this.name = name;
    }

    void add(Entry entry) {
        size++;
        if (out == null && memory.size() < IN_MEMORY) {
            memory.add(entry);
            return;
        }
        try {
            if (out == null) {
                Files.createDirectories(scratch);
                file = Files.createTempFile(scratch, name, ".spool");
                out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file), 1 << 16));
            }
            EntryFormat.write(out, entry);
        }
        catch (IOException e) {
            throw spillFailed(e);
        }
    }

    long size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** The entries in the order they were added: memory first, then the file. */
    @Override
    public Iterator<Entry> iterator() {
        if (file == null) {
            return memory.iterator();
        }
        try {
            out.flush();
            DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16));
            Iterator<Entry> spilled = EntryFormat.entries(in, EntrySpool::spillFailed);
            Iterator<Entry> first = memory.iterator();
            return new Iterator<>() {
                @Override
                public boolean hasNext() {
                    return first.hasNext() || spilled.hasNext();
                }

                @Override
                public Entry next() {
                    return first.hasNext() ? first.next() : spilled.next();
                }
            };
        }
        catch (IOException e) {
            throw spillFailed(e);
        }
    }

    @Override
    public void close() {
        memory.clear();
        try {
            if (out != null) {
                out.close();
            }
            if (file != null) {
                Files.deleteIfExists(file);
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static MoverException spillFailed(IOException e) {
        return new MoverException(ErrorCode.IO_ERROR, "cannot spill the sync plan to the scratch directory: " + e.getMessage(), e);
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        }
        catch (Exception e) {
            // a read-only spill file: nothing is lost
        }
    }
}
