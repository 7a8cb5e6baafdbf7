package io.mover.spi;

import java.time.Instant;

import static java.util.Objects.requireNonNull;

/**
 * One entry of a listing: the facts the engine compares. Immutable.
 *
 * @param path where the entry is, relative to the endpoint's root
 * @param type file, directory, symlink or other
 * @param size bytes of content; 0 for directories
 * @param lastModified modification time, at the endpoint's {@link EndpointInfo#mtimePrecision()}
 * @param attributes everything else the listing carried, {@link Attributes#NONE} when nothing
 */
public record Entry(RelativePath path, EntryType type, long size, Instant lastModified, Attributes attributes) {
    public Entry {
        requireNonNull(path, "path is null");
        requireNonNull(type, "type is null");
        requireNonNull(lastModified, "lastModified is null");
        requireNonNull(attributes, "attributes is null");
        if (size < 0) {
            throw new IllegalArgumentException("size is negative: " + size);
        }
    }

    public static Entry file(RelativePath path, long size, Instant lastModified) {
        return new Entry(path, EntryType.FILE, size, lastModified, Attributes.NONE);
    }

    public static Entry directory(RelativePath path, Instant lastModified) {
        return new Entry(path, EntryType.DIRECTORY, 0, lastModified, Attributes.NONE);
    }

    public boolean isFile() {
        return type == EntryType.FILE;
    }

    public boolean isDirectory() {
        return type == EntryType.DIRECTORY;
    }
}
