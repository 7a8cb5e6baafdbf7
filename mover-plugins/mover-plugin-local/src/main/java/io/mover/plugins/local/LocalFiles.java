package io.mover.plugins.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.stream.Stream;

import io.mover.spi.Attributes;
import io.mover.spi.EndpointInfo;
import io.mover.spi.Entry;
import io.mover.spi.EntryType;
import io.mover.spi.RelativePath;

/** What the local source and sink share: path resolution, attribute reading and writing, listing. */
final class LocalFiles {
    static final boolean POSIX = java.nio.file.FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    static final EndpointInfo INFO = new EndpointInfo(Duration.ofNanos(1), Set.of(), true, POSIX, true);
    private static final PosixFilePermission[] PERMISSION_BITS = {
            PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_READ,
            PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ,
            PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_READ};

    /**
     * The process's umask, read from {@code /proc/self/status} (Linux 4.7 and later), or -1 where it
     * cannot be read. A file created with a mode the umask leaves whole needs no {@code chmod} after.
     */
    static final int UMASK = readUmask();

    /**
     * File systems on a local disk (or memory). A call through FFM pins its virtual thread's carrier where the
     * JDK's own file I/O lets the scheduler add one, so only these get {@link LocalKernelCopy}: on a mounted
     * share a slow open must not hold one of two carriers.
     */
    private static final Set<String> LOCAL_DISK_TYPES = Set.of("ext2", "ext3", "ext4", "xfs", "btrfs", "f2fs", "zfs", "bcachefs", "tmpfs", "overlay");

    private LocalFiles() {}

    /** Whether {@code path} lies on one of {@link #LOCAL_DISK_TYPES} (read from the mount table once per call). */
    static boolean onLocalDisk(Path path) {
        try {
            return LOCAL_DISK_TYPES.contains(Files.getFileStore(path).type());
        }
        catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private static int readUmask() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Umask:")) {
                    return Integer.parseInt(line.substring("Umask:".length()).strip(), 8);
                }
            }
        }
        catch (IOException | RuntimeException e) {
            // not Linux, or no procfs: set every mode explicitly
        }
        return -1;
    }

    /** Whether a file created with {@code mode} gets exactly that mode, the umask removing nothing. */
    static boolean createdWithExactMode(int mode) {
        return UMASK >= 0 && (mode & UMASK) == 0;
    }

    /** {@code root} joined with each segment; {@link RelativePath} has already refused {@code ..} and absolute paths. */
    static Path resolve(Path root, RelativePath path) {
        Path result = root;
        for (String segment : path.segments()) {
            result = result.resolve(segment);
        }
        return result;
    }

    /** The entry for {@code file}, not following a final symlink unless {@code follow}. */
    static Optional<Entry> entry(Path file, RelativePath path, boolean follow) throws IOException {
        LinkOption[] options = linkOptions(follow);
        BasicFileAttributes attributes;
        try {
            attributes = POSIX
                    ? Files.readAttributes(file, PosixFileAttributes.class, options)
                    : Files.readAttributes(file, BasicFileAttributes.class, options);
        }
        catch (java.nio.file.NoSuchFileException e) {
            return Optional.empty();
        }
        return Optional.of(toEntry(file, path, attributes));
    }

    /** The entry of {@code file} from attributes already read; a link's target is read here. */
    static Entry toEntry(Path file, RelativePath path, BasicFileAttributes attributes) throws IOException {
        EntryType type = attributes.isRegularFile() ? EntryType.FILE
                : attributes.isDirectory() ? EntryType.DIRECTORY
                : attributes.isSymbolicLink() ? EntryType.SYMLINK
                : EntryType.OTHER;
        OptionalInt mode = attributes instanceof PosixFileAttributes posix ? OptionalInt.of(toMode(posix.permissions())) : OptionalInt.empty();
        Optional<String> target = type == EntryType.SYMLINK ? Optional.of(Files.readSymbolicLink(file).toString()) : Optional.empty();
        FileTime created = attributes.creationTime();
        Attributes extra = new Attributes(mode, created == null ? Optional.empty() : Optional.of(created.toInstant()), target, Map.of(), Map.of());
        long size = type == EntryType.FILE ? attributes.size() : 0;
        return new Entry(path, type, size, attributes.lastModifiedTime().toInstant(), extra);
    }

    static LinkOption[] linkOptions(boolean follow) {
        return follow ? new LinkOption[0] : new LinkOption[] {LinkOption.NOFOLLOW_LINKS};
    }

    /**
     * A lazy stream over a directory; entries whose names {@code keep} refuses are left out. {@code onLocalDisk}:
     * the directory is on one of {@link #LOCAL_DISK_TYPES}, where Linux lists through {@link NativeListing};
     * elsewhere the JDK's {@link LocalListing}.
     */
    static Stream<Entry> list(Path directory, RelativePath path, boolean follow, java.util.function.Predicate<String> keep, boolean onLocalDisk) throws IOException {
        return onLocalDisk && NativeListing.available() ? NativeListing.of(directory, path, follow, keep) : LocalListing.of(directory, path, linkOptions(follow), keep);
    }

    /** Each permission's bit by its ordinal: one pass over the (enum) set instead of nine look-ups per entry listed. */
    private static final int[] BIT_BY_ORDINAL = bitByOrdinal();

    private static int[] bitByOrdinal() {
        int[] bits = new int[PosixFilePermission.values().length];
        for (int bit = 0; bit < PERMISSION_BITS.length; bit++) {
            bits[PERMISSION_BITS[bit].ordinal()] = 1 << bit;
        }
        return bits;
    }

    static int toMode(Set<PosixFilePermission> permissions) {
        int mode = 0;
        for (PosixFilePermission permission : permissions) {
            mode |= BIT_BY_ORDINAL[permission.ordinal()];
        }
        return mode;
    }

    static Set<PosixFilePermission> toPermissions(int mode) {
        Set<PosixFilePermission> permissions = EnumSet.noneOf(PosixFilePermission.class);
        for (int bit = 0; bit < PERMISSION_BITS.length; bit++) {
            if ((mode & (1 << bit)) != 0) {
                permissions.add(PERMISSION_BITS[bit]);
            }
        }
        return permissions;
    }

    /** Applies the source's mtime and, where both sides have it, its permission bits; never follows a link. */
    static void applyAttributes(Path file, Entry source) throws IOException {
        if (POSIX && source.attributes().posixMode().isPresent()) {
            Files.getFileAttributeView(file, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                    .setPermissions(toPermissions(source.attributes().posixMode().getAsInt()));
        }
        // the basic view: the POSIX one is absent on Windows
        Files.getFileAttributeView(file, java.nio.file.attribute.BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                .setTimes(FileTime.from(source.lastModified()), null, null);
    }

    /**
     * As {@link #applyAttributes} for a regular file this sink has just created (a temporary opened with
     * O_EXCL, so never a link). On Linux the time is set by name with one {@code utimensat} that leaves the
     * access time alone; the JDK's {@code setTimes} opens the file, reads its access time, sets both and
     * closes it: four calls.
     */
    static void applyAttributesToOwnFile(Path file, Entry source, boolean modeSet, boolean nativeTimes) throws IOException {
        if (POSIX && source.attributes().posixMode().isPresent() && !modeSet) {
            Files.setPosixFilePermissions(file, toPermissions(source.attributes().posixMode().getAsInt()));
        }
        byte[] name = nativeTimes ? LinuxCalls.INSTANCE.map(calls -> calls.nativePath(file)).orElse(null) : null;
        if (name != null) {
            LinuxCalls.INSTANCE.get().setModified(name, source.lastModified(), file);
        }
        else {
            Files.setLastModifiedTime(file, FileTime.from(source.lastModified()));
        }
    }

    /** Deletes {@code directory} and everything below it; a link inside is removed, never followed (walkFileTree's default). */
    static void deleteTree(Path directory) throws IOException {
        Files.walkFileTree(directory, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                if (e != null) {
                    throw e;
                }
                Files.delete(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
