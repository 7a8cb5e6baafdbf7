package io.mover.plugins.nfs.client;

import java.util.Arrays;
import java.util.HexFormat;

import static java.util.Objects.requireNonNull;

/** An NFSv3 file handle: at most 64 opaque bytes the server gave us. Immutable. */
public final class FileHandle {
    static final int MAX_BYTES = 64;

    private final byte[] bytes;

    public FileHandle(byte[] bytes) {
        requireNonNull(bytes, "bytes is null");
        if (bytes.length == 0 || bytes.length > MAX_BYTES) {
            throw new IllegalArgumentException("a file handle has 1 to 64 bytes, not " + bytes.length);
        }
        this.bytes = bytes.clone();
    }

    byte[] bytes() {
        return bytes;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof FileHandle handle && Arrays.equals(bytes, handle.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return HexFormat.of().formatHex(bytes);
    }
}
