package io.mover.plugins.local;

import java.util.Optional;

/**
 * The numbers {@link LinuxCalls} needs that differ between architectures: the system calls it makes through
 * {@code syscall(2)}, and the {@code open} flags whose values are not the same everywhere. The generic table
 * ({@code asm-generic/unistd.h}) is aarch64's; x86-64 keeps its own.
 *
 * @param oTmpfile {@code O_TMPFILE}: {@code __O_TMPFILE | O_DIRECTORY}
 * @param oDirectory {@code O_DIRECTORY}
 * @param oNofollow {@code O_NOFOLLOW}
 */
record LinuxAbi(int oTmpfile, int oDirectory, int oNofollow, long openat, long close, long copyFileRange, long utimensat, long fchmod,
        long fsync, long statx, long linkat, long fadvise64, long getdents64,
        long renameat2, long unlinkat, long openat2, long fallocate) {
    /** {@code __O_TMPFILE}, the same on every architecture. */
    private static final int O_TMPFILE_ONLY = 020000000;

    /** Empty on an architecture whose numbers are not known here: the sink and the listing keep the JDK's path there. */
    static Optional<LinuxAbi> of(String arch) {
        return switch (arch) {
            case "amd64", "x86_64" -> Optional.of(new LinuxAbi(O_TMPFILE_ONLY | 0200000, 0200000, 0400000,
                    257, 3, 326, 280, 91, 74, 332, 265, 221, 217, 316, 263, 437, 285));
            case "aarch64" -> Optional.of(new LinuxAbi(O_TMPFILE_ONLY | 040000, 040000, 0100000,
                    56, 57, 285, 88, 52, 82, 291, 37, 223, 61, 276, 35, 437, 47));
            default -> Optional.empty();
        };
    }
}
