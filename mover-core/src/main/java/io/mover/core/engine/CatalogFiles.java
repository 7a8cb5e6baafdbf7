package io.mover.core.engine;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;

import io.mover.spi.Entry;
import io.mover.spi.RelativePath;

import static java.util.Objects.requireNonNull;

/**
 * A catalog generation's folders in two files, written in one pass of the planner's depth-first walk: {@link #ENTRIES}
 * holds each folder's entries ({@link EntryFormat}) in segments, {@link #INDEX} each folder's path and where its
 * segments are. A file per folder (the first layout) cost a file created per folder per sync, and the old generation's
 * files removed, on the planner's own thread: a tenth of a no-change sync's CPU at 1,000 folders.
 * <p>
 * Folders nest, so a folder's entries are buffered while its subfolders are walked, and written as a segment whenever
 * its buffer passes {@link #SEGMENT} bytes and when it is left: memory stays at most a segment per open folder
 * (the walk's depth), however large a folder is. The index is read whole by the next sync (about a hundred bytes
 * per folder).
 * <p>
 * Both files start with the generation's random id. A sync reads the index once and each folder's entries when it
 * gets there, through the entries file it opened with the index: {@link #open} checks that both have one id (another
 * sync committing between the two opens replaced them) and declines otherwise (the destination is listed for real).
 */
final class CatalogFiles {
    static final String ENTRIES = "entries";
    static final String INDEX = "index";
    static final int SEGMENT = 1 << 16;

    private CatalogFiles() {
    }

    /** A generation's id and each of its folders' segments, as offset and length pairs in {@link #ENTRIES}. */
    record Index(long generation, Map<String, long[]> folders) {
        static final Index EMPTY = new Index(0, Map.of());
    }

    /** The generation's index; {@link Index#EMPTY} when {@code generation} has none. */
    static Index readIndex(Path generation) throws IOException {
        Map<String, long[]> index = new HashMap<>();
        Path file = generation.resolve(INDEX);
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16))) {
            // a damaged count must not ask for more memory than the file could describe
            long mostSegments = Files.size(file) / 16;
            long id;
            try {
                id = in.readLong();
            }
            catch (EOFException empty) {
                return Index.EMPTY;
            }
            for (;;) { // bounded by the file: each record is read whole or ends the loop at its end
                String folder;
                try {
                    folder = in.readUTF();
                }
                catch (EOFException end) {
                    return new Index(id, index);
                }
                int count = in.readInt();
                if (count < 0 || count > mostSegments) {
                    throw new IOException("bad segment count " + count + " for folder '" + folder + "'");
                }
                long[] segments = new long[count * 2];
                for (int i = 0; i < segments.length; i++) {
                    segments[i] = in.readLong();
                }
                index.put(folder, segments);
            }
        }
        catch (NoSuchFileException e) {
            return Index.EMPTY;
        }
    }

    /**
     * A generation's index with its {@link #ENTRIES} open, checked to be of the same generation: a sync opens its
     * catalog once and reads every folder through the one channel (a file opened, its id read and closed per folder
     * cost three system calls a folder). Another sync committing meanwhile replaces the files by renaming; the channel
     * still reads the generation it opened. {@code entries} is null for {@link Index#EMPTY}.
     */
    record Opened(Index index, FileChannel entries) implements AutoCloseable {
        static final Opened NONE = new Opened(Index.EMPTY, null);

        @Override
        public void close() throws IOException {
            if (entries != null) {
                entries.close();
            }
        }
    }

    /** Opens the generation; {@link Opened#NONE} when it has none, or its two files are not of one generation. */
    static Opened open(Path generation) throws IOException {
        FileChannel channel;
        try {
            channel = FileChannel.open(generation.resolve(ENTRIES), StandardOpenOption.READ);
        }
        catch (NoSuchFileException e) {
            return Opened.NONE;
        }
        try {
            ByteBuffer id = ByteBuffer.allocate(Long.BYTES);
            // a file's first 8 bytes come whole in one positional read, unless the file is shorter
            Index index = channel.read(id, 0) < Long.BYTES ? Index.EMPTY : readIndex(generation);
            if (index.generation() == 0 || id.getLong(0) != index.generation()) {
                // another sync committed (or dropped the catalog) between the two opens: list for real
                channel.close();
                return Opened.NONE;
            }
            return new Opened(index, channel);
        }
        catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /** The id of the generation's index; 0 when it has none. */
    static long id(Path generation) throws IOException {
        try (FileChannel channel = FileChannel.open(generation.resolve(INDEX), StandardOpenOption.READ)) {
            ByteBuffer id = ByteBuffer.allocate(Long.BYTES);
            return channel.read(id, 0) < Long.BYTES ? 0 : id.getLong(0);
        }
        catch (NoSuchFileException e) {
            return 0;
        }
    }

    /**
     * The entries of {@code folder} (its {@code segments} in {@code entries}), read as they are asked for; a failure to
     * read is thrown as {@code failure} makes it.
     */
    static Iterator<Entry> entries(FileChannel entries, long[] segments, RelativePath folder, Function<IOException, RuntimeException> failure) {
        SegmentInput in = new SegmentInput(entries, segments);
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                try {
                    return !in.atEnd();
                }
                catch (IOException e) {
                    throw failure.apply(e);
                }
            }

            @Override
            public Entry next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                try {
                    return EntryFormat.readChild(in, folder);
                }
                catch (IOException e) {
                    throw failure.apply(e);
                }
            }
        };
    }

    /** Writes a generation as the walk goes; one thread (the planner's). */
    static final class Writer implements AutoCloseable {
        private final OutputStream entries;
        private final DataOutputStream index;
        private final Deque<Folder> open = new ArrayDeque<>();
        /** Buffers of folders left, for the next folders entered: grown once, not per folder (at most one per depth). */
        private final Deque<ByteArrayOutputStream> spare = new ArrayDeque<>();
        private long written;

        Writer(Path generation) throws IOException {
            long id = ThreadLocalRandom.current().nextLong() | 1; // never Index.EMPTY's 0
            this.entries = new BufferedOutputStream(Files.newOutputStream(generation.resolve(ENTRIES)), SEGMENT);
            OutputStream indexFile;
            try {
                indexFile = Files.newOutputStream(generation.resolve(INDEX));
            }
            catch (IOException e) {
                entries.close();
                throw e;
            }
            this.index = new DataOutputStream(new BufferedOutputStream(indexFile, 1 << 16));
            index.writeLong(id);
            entries.write(ByteBuffer.allocate(Long.BYTES).putLong(id).array());
            written = Long.BYTES;
        }

        boolean hasOpenFolders() {
            return !open.isEmpty();
        }

        void enter(RelativePath folder) {
            ByteArrayOutputStream bytes = spare.poll();
            open.push(new Folder(folder.toString(), bytes != null ? bytes : new ByteArrayOutputStream(1 << 10)));
        }

        void entry(Entry entry) throws IOException {
            Folder folder = requireNonNull(open.peek(), "no folder entered");
            EntryFormat.writeChild(folder.out, entry);
            if (folder.bytes.size() >= SEGMENT) {
                flush(folder);
            }
        }

        void leave() throws IOException {
            Folder folder = open.pop();
            flush(folder);
            index.writeUTF(folder.path);
            index.writeInt(folder.segmentCount / 2);
            for (int i = 0; i < folder.segmentCount; i++) {
                index.writeLong(folder.segments[i]);
            }
            spare.push(folder.bytes);
        }

        /**
         * A whole folder as {@code entries} holds it in {@code segments} (a folder the sync found unchanged until it had
         * to write the generation after all), written as one segment.
         */
        void copy(String folder, FileChannel from, long[] segments) throws IOException {
            long start = written;
            byte[] bytes = new byte[SEGMENT];
            for (int i = 0; i < segments.length; i += 2) {
                long done = 0;
                while (done < segments[i + 1]) { // bounded: each read moves on, or fails at the file's end
                    int got = from.read(ByteBuffer.wrap(bytes, 0, (int) Math.min(bytes.length, segments[i + 1] - done)), segments[i] + done);
                    if (got <= 0) {
                        throw new EOFException("the catalog's entries end before a folder's segment does");
                    }
                    entries.write(bytes, 0, got);
                    done += got;
                }
                written += done;
            }
            index.writeUTF(folder);
            index.writeInt(written > start ? 1 : 0);
            if (written > start) {
                index.writeLong(start);
                index.writeLong(written - start);
            }
        }

        private void flush(Folder folder) throws IOException {
            int length = folder.bytes.size();
            if (length == 0) {
                return;
            }
            folder.bytes.writeTo(entries);
            folder.bytes.reset();
            folder.addSegment(written, length);
            written += length;
        }

        @Override
        public void close() throws IOException {
            open.clear();
            try (entries; index) {
                entries.flush();
                index.flush();
            }
        }
    }

    /** An open folder: its entries not yet written, and the segments written so far. */
    private static final class Folder {
        final String path;
        final ByteArrayOutputStream bytes;
        final DataOutputStream out;
        long[] segments = new long[2];
        int segmentCount;

        /** {@code bytes} empty: a new buffer, or one a folder left (flushed, so reset). */
        Folder(String path, ByteArrayOutputStream bytes) {
            this.path = path;
            this.bytes = bytes;
            this.out = new DataOutputStream(bytes);
        }

        void addSegment(long offset, long length) {
            if (segmentCount == segments.length) {
                segments = Arrays.copyOf(segments, segments.length * 2);
            }
            segments[segmentCount++] = offset;
            segments[segmentCount++] = length;
        }
    }
}
