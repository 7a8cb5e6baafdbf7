package io.mover.jobstore.service;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.InflaterInputStream;

import io.mover.spi.Attributes;
import io.mover.spi.Entry;
import io.mover.spi.EntryType;
import io.mover.spi.RelativePath;

/**
 * A unit's manifest in the store: its entries in crawl order, as version 1 of a small binary format
 * (type, path, size, mtime, mode, link target per entry), deflated: paths of one folder share long prefixes.
 */
final class Manifests {
    private static final int VERSION = 1;
    /** A sync's deletes: the same format, the entries are removed at the destination instead of copied. */
    private static final int DELETES = 2;

    private Manifests() {
    }

    static byte[] encode(List<Entry> entries) {
        return encode(entries, VERSION);
    }

    /** A unit of a sync's deletes (files before their folders). */
    static byte[] encodeDeletes(List<Entry> entries) {
        return encode(entries, DELETES);
    }

    static boolean isDeletes(byte[] manifest) {
        try (DataInputStream in = new DataInputStream(new InflaterInputStream(new ByteArrayInputStream(manifest)))) {
            return in.readByte() == DELETES;
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] encode(List<Entry> entries, int version) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(new DeflaterOutputStream(bytes))) {
            out.writeByte(version);
            out.writeInt(entries.size());
            for (Entry entry : entries) {
                out.writeByte(entry.type().ordinal());
                out.writeUTF(entry.path().toString());
                out.writeLong(entry.size());
                out.writeLong(entry.lastModified().getEpochSecond());
                out.writeInt(entry.lastModified().getNano());
                out.writeInt(entry.attributes().posixMode().orElse(-1));
                Optional<String> target = entry.attributes().symlinkTarget();
                out.writeBoolean(target.isPresent());
                if (target.isPresent()) {
                    out.writeUTF(target.get());
                }
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static List<Entry> decode(byte[] manifest) {
        try (DataInputStream in = new DataInputStream(new InflaterInputStream(new ByteArrayInputStream(manifest)))) {
            int version = in.readByte();
            if (version != VERSION && version != DELETES) {
                throw new IllegalStateException("unknown manifest version " + version);
            }
            int count = in.readInt();
            List<Entry> entries = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                EntryType type = EntryType.values()[in.readByte()];
                RelativePath path = RelativePath.of(in.readUTF());
                long size = in.readLong();
                Instant mtime = Instant.ofEpochSecond(in.readLong(), in.readInt());
                int mode = in.readInt();
                Optional<String> target = in.readBoolean() ? Optional.of(in.readUTF()) : Optional.empty();
                Attributes attributes = new Attributes(mode < 0 ? OptionalInt.empty() : OptionalInt.of(mode), Optional.empty(), target,
                        Map.of(), Map.of());
                entries.add(new Entry(path, type, size, mtime, attributes));
            }
            return entries;
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
