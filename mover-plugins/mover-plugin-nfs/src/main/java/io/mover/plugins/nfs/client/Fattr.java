package io.mover.plugins.nfs.client;

import java.time.Instant;

/**
 * The NFSv3 attributes mover uses (fattr3, RFC 1813 §2.6).
 *
 * @param type 1 regular, 2 directory, 3 block, 4 character, 5 symlink, 6 socket, 7 fifo
 * @param mode permission bits
 */
public record Fattr(int type, int mode, long uid, long gid, long size, long fileId, Instant mtime) {
    public static final int REGULAR = 1;
    public static final int DIRECTORY = 2;
    public static final int SYMLINK = 5;

    public boolean isDirectory() {
        return type == DIRECTORY;
    }

    public boolean isRegular() {
        return type == REGULAR;
    }
}
