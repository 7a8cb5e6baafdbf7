package io.mover.core.engine;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

import io.mover.spi.Attributes;
import io.mover.spi.Entry;
import io.mover.spi.EntryType;
import io.mover.spi.RelativePath;

/**
 * An {@link Entry} as bytes, for the sync's spill files (sorted runs of huge directories, the plan's
 * spools) and its catalog. The spill files are private to one process and one job; the catalog outlives them:
 * any change here must bump {@link SyncCatalog#VERSION}, so that an older catalog is ignored rather than misread.
 */
final class EntryFormat {
    private static final EntryType[] TYPES = EntryType.values();

    private EntryFormat() {}

    static void write(DataOutput out, Entry entry) throws IOException {
        out.writeUTF(entry.path().toString());
        writeFields(out, entry);
    }

    /** An entry of a folder whose path the reader knows ({@link #readChild}): its name only. */
    static void writeChild(DataOutput out, Entry entry) throws IOException {
        out.writeUTF(entry.path().name());
        writeFields(out, entry);
    }

    private static void writeFields(DataOutput out, Entry entry) throws IOException {
        out.writeByte(entry.type().ordinal());
        out.writeLong(entry.size());
        out.writeLong(entry.lastModified().getEpochSecond());
        out.writeInt(entry.lastModified().getNano());
        Attributes attributes = entry.attributes();
        out.writeInt(attributes.posixMode().orElse(-1));
        out.writeBoolean(attributes.creationTime().isPresent());
        if (attributes.creationTime().isPresent()) {
            out.writeLong(attributes.creationTime().get().getEpochSecond());
            out.writeInt(attributes.creationTime().get().getNano());
        }
        out.writeUTF(attributes.symlinkTarget().orElse(""));
        writeMap(out, attributes.hashes());
        writeMap(out, attributes.extended());
    }

    static Entry read(DataInput in) throws IOException {
        return readFields(in, RelativePath.of(in.readUTF()));
    }

    /** An entry {@link #writeChild} wrote, of {@code folder}. */
    static Entry readChild(DataInput in, RelativePath folder) throws IOException {
        return readFields(in, folder.resolve(in.readUTF()));
    }

    private static Entry readFields(DataInput in, RelativePath path) throws IOException {
        EntryType type = TYPES[in.readByte()];
        long size = in.readLong();
        Instant modified = Instant.ofEpochSecond(in.readLong(), in.readInt());
        int mode = in.readInt();
        Optional<Instant> created = in.readBoolean() ? Optional.of(Instant.ofEpochSecond(in.readLong(), in.readInt())) : Optional.empty();
        String target = in.readUTF();
        Map<String, String> hashes = readMap(in);
        Map<String, String> extended = readMap(in);
        Attributes attributes = new Attributes(mode < 0 ? OptionalInt.empty() : OptionalInt.of(mode), created,
                target.isEmpty() ? Optional.empty() : Optional.of(target), hashes, extended);
        return new Entry(path, type, size, modified, attributes);
    }

    /**
     * The entries of {@code in} until its end, read as they are asked for; {@code in} is closed at its end or at a
     * failure, which is thrown as {@code failure} makes it.
     */
    static java.util.Iterator<Entry> entries(java.io.DataInputStream in, java.util.function.Function<IOException, RuntimeException> failure) {
        return new java.util.Iterator<>() {
            private Entry next = read();

            private Entry read() {
                try {
                    return EntryFormat.read(in);
                }
                catch (java.io.EOFException end) {
                    closeQuietly();
                    return null;
                }
                catch (IOException e) {
                    closeQuietly();
                    throw failure.apply(e);
                }
            }

            private void closeQuietly() {
                try {
                    in.close();
                }
                catch (IOException e) {
                    // read to its end, or failed already: nothing to lose
                }
            }

            @Override
            public boolean hasNext() {
                return next != null;
            }

            @Override
            public Entry next() {
                if (next == null) {
                    throw new java.util.NoSuchElementException();
                }
                Entry current = next;
                next = read();
                return current;
            }
        };
    }

    private static void writeMap(DataOutput out, Map<String, String> map) throws IOException {
        out.writeShort(map.size());
        for (Map.Entry<String, String> e : map.entrySet()) {
            out.writeUTF(e.getKey());
            out.writeUTF(e.getValue());
        }
    }

    private static Map<String, String> readMap(DataInput in) throws IOException {
        int size = in.readShort();
        if (size == 0) {
            return Map.of();
        }
        Map<String, String> map = new HashMap<>();
        for (int i = 0; i < size; i++) {
            map.put(in.readUTF(), in.readUTF());
        }
        return map;
    }
}
