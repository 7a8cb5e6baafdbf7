package io.mover.spi;

/** What an {@link Entry} is. */
public enum EntryType {
    FILE,
    DIRECTORY,
    /** A symbolic link, reported as itself (not followed); its target is in {@link Attributes#symlinkTarget()}. */
    SYMLINK,
    /** A device, socket, pipe or anything else that is not copied. */
    OTHER
}
