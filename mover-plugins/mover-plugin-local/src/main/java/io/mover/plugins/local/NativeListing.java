package io.mover.plugins.local;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.function.Predicate;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

import io.mover.spi.Attributes;
import io.mover.spi.Entry;
import io.mover.spi.EntryType;
import io.mover.spi.RelativePath;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;

/**
 * {@link LocalListing} on Linux without the JDK's file API: the directory is read with {@code getdents64}
 * into a buffer and each entry's attributes with {@code statx} on the open directory's descriptor, the name
 * passed straight from that buffer (FFM, {@code java.lang.foreign}). The JDK's listing made one native call
 * per entry for its name ({@code readdir}), built a {@code Path} of it, and read the attributes into a
 * {@code PosixFileAttributes} whose permissions are an enum set; a no-change sync lists every entry of both
 * trees, and on a running server such a sync of 100,000 files took about a fifth less CPU this way
 * (docs/benchmarks.md, "Sync").
 * What an entry carries is what {@link LocalFiles#toEntry} makes of the JDK's attributes: type, size of a
 * file, the nine permission bits, modification time, birth time (the modification time where the file
 * system keeps none, as the JDK reports it), a link's target. Entries gone before their {@code statx}
 * are left out. Used only on local disks (see {@link LocalFiles#onLocalDisk}): a call through FFM pins a
 * virtual thread's carrier. One thread at a time; not thread-safe.
 */
final class NativeListing extends SkippingIterator {
    /** As glibc's {@code readdir}: one call returns a few hundred entries. */
    private static final int BUFFER_SIZE = 32 * 1024;
    private static final int STATX_SIZE = 256;
    /** {@code STATX_TYPE | STATX_MODE | STATX_MTIME | STATX_SIZE | STATX_BTIME}: what an entry carries, nothing more. */
    private static final int STATX_MASK = 0x1 | 0x2 | 0x40 | 0x200 | 0x800;
    private static final int STATX_BTIME = 0x800;
    private static final int AT_SYMLINK_NOFOLLOW = 0x100;
    private static final int S_IFMT = 0170000;
    private static final int S_IFREG = 0100000;
    private static final int S_IFDIR = 0040000;
    private static final int S_IFLNK = 0120000;

    /** Memory of ended listings for the next ones: about as many as run at once (a sync lists 8 folders at a time). */
    private static final ArrayBlockingQueue<Memory> POOL = new ArrayBlockingQueue<>(16);
    /** The calls, or null where {@link LinuxCalls} is empty: the JDK's listing is used there. */
    private static final LinuxCalls CALLS = LinuxCalls.INSTANCE.orElse(null);
    // constants, so the JIT can inline each downcall (a handle read from a field cannot be)
    private static final MethodHandle SYSCALL = CALLS == null ? null : CALLS.syscall;
    private static final VarHandle ERRNO = CALLS == null ? null : CALLS.errno;
    private static final long OPENAT = CALLS == null ? 0 : CALLS.abi.openat();
    private static final long CLOSE = CALLS == null ? 0 : CALLS.abi.close();
    private static final long GETDENTS64 = CALLS == null ? 0 : CALLS.abi.getdents64();
    private static final long STATX = CALLS == null ? 0 : CALLS.abi.statx();

    private final Path directory;
    private final RelativePath path;
    private final Predicate<String> keep;
    private final int statFlags;
    private final Memory memory;
    private final MemorySegment buffer;
    private final MemorySegment stat;
    private final MemorySegment state;
    /** One name at a time, copied out of {@link #buffer}: a name is at most 255 bytes and its NUL. */
    private final byte[] names = new byte[256];
    private int fd;
    private int position;
    private int limit;

    private NativeListing(Memory memory, Path directory, RelativePath path, boolean follow, Predicate<String> keep, int fd) {
        this.directory = directory;
        this.path = path;
        this.keep = keep;
        this.statFlags = follow ? 0 : AT_SYMLINK_NOFOLLOW;
        this.fd = fd;
        this.memory = memory;
        this.buffer = memory.buffer;
        this.stat = memory.stat;
        this.state = memory.state;
    }

    /** Whether {@link #of} can be used here. */
    static boolean available() {
        return CALLS != null;
    }

    /** As {@link LocalListing#of}; only where {@link #available()}. */
    static Stream<Entry> of(Path directory, RelativePath path, boolean follow, Predicate<String> keep) throws IOException {
        byte[] name = CALLS.nativePath(directory);
        if (name == null || name.length > BUFFER_SIZE) {
            // a name the JDK decoded lossily: only its own calls still find the directory (or one the kernel refuses anyway)
            return LocalListing.of(directory, path, LocalFiles.linkOptions(follow), keep);
        }
        Memory memory = POOL.poll();
        if (memory == null) {
            memory = Memory.allocate(CALLS.errnoSize);
        }
        int fd;
        try {
            fd = open(memory, name, directory);
        }
        catch (IOException | RuntimeException e) {
            POOL.offer(memory);
            throw e;
        }
        NativeListing listing = new NativeListing(memory, directory, path, follow, keep, fd);
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(listing, Spliterator.ORDERED | Spliterator.NONNULL), false)
                .onClose(listing::close);
    }

    /** {@code openat} of the directory, its name passed in the listing's buffer: no memory of its own per call. */
    private static int open(Memory memory, byte[] name, Path directory) throws IOException {
        MemorySegment.copy(name, 0, memory.buffer, JAVA_BYTE, 0, name.length);
        long flags = LinuxCalls.O_RDONLY | LinuxCalls.O_CLOEXEC | CALLS.abi.oDirectory();
        for (int attempt = 0; ; attempt++) {
            int fd;
            try {
                fd = (int) (long) SYSCALL.invokeExact(memory.state, OPENAT, LinuxCalls.AT_FDCWD, memory.buffer.address(), flags, 0L, 0L, 0L);
            }
            catch (Throwable e) {
                throw new IllegalStateException(e);
            }
            if (fd >= 0) {
                return fd;
            }
            int code = (int) ERRNO.get(memory.state, 0L);
            // a signal: tried again a few times, as LinuxCalls does
            if (code != LinuxCalls.EINTR || attempt >= 16) {
                throw CALLS.error(code, "open", directory);
            }
        }
    }

    @Override
    boolean more() {
        if (fd >= 0 && position >= limit && !fill()) {
            close();
        }
        return fd >= 0;
    }

    /** The entry of the next record: its length at offset 16, its name at 19. */
    @Override
    Entry read() {
        int record = position;
        int length = Short.toUnsignedInt(buffer.get(JAVA_SHORT_UNALIGNED, record + 16));
        position += length;
        return read(record + 19, length - 19);
    }

    /** Reads the next records into the buffer; false at the end of the directory. */
    private boolean fill() {
        long read;
        try {
            read = (long) SYSCALL.invokeExact(state, GETDENTS64, (long) fd, buffer.address(), (long) BUFFER_SIZE, 0L, 0L, 0L);
        }
        catch (Throwable e) {
            throw new IllegalStateException(e);
        }
        if (read < 0) {
            throw IoErrors.map(CALLS.error(errno(), "list", directory), "list", directory);
        }
        position = 0;
        limit = (int) read;
        return read > 0;
    }

    /**
     * The entry whose name starts at {@code name} in the buffer, NUL-terminated within {@code room} bytes; null for
     * {@code .}, {@code ..}, a name left out, an entry gone. The name is copied out in one piece and its end found
     * in the array: {@code MemorySegment.getString} reads it byte by byte (7 % of the listing threads' samples with C1).
     */
    private Entry read(int name, int room) {
        int copied = Math.min(room, names.length);
        MemorySegment.copy(buffer, JAVA_BYTE, name, names, 0, copied);
        int length = 0;
        // bounded by the copy: the kernel pads each name with at least one NUL
        while (length < copied && names[length] != 0) {
            length++;
        }
        if (names[0] == '.' && (length == 1 || length == 2 && names[1] == '.')) {
            return null;
        }
        String text = new String(names, 0, length, CALLS.pathCharset);
        if (!keep.test(text)) {
            return null;
        }
        int result;
        try {
            result = (int) (long) SYSCALL.invokeExact(state, STATX, (long) fd, buffer.address() + name, (long) statFlags, (long) STATX_MASK, stat.address(), 0L);
        }
        catch (Throwable e) {
            throw new IllegalStateException(e);
        }
        if (result < 0) {
            int code = errno();
            if (code == LinuxCalls.ENOENT) {
                return null;
            }
            Path file = directory.resolve(text);
            throw IoErrors.map(CALLS.error(code, "read the attributes of", file), "read the attributes of", file);
        }
        return entry(text);
    }

    /** The entry {@link #stat} describes, as {@link LocalFiles#toEntry} makes it of the JDK's attributes. */
    private Entry entry(String name) {
        int mode = Short.toUnsignedInt(stat.get(JAVA_SHORT_UNALIGNED, 28));
        EntryType type = switch (mode & S_IFMT) {
            case S_IFREG -> EntryType.FILE;
            case S_IFDIR -> EntryType.DIRECTORY;
            case S_IFLNK -> EntryType.SYMLINK;
            default -> EntryType.OTHER;
        };
        Optional<String> target = Optional.empty();
        if (type == EntryType.SYMLINK) {
            Path link = directory.resolve(name);
            try {
                target = Optional.of(Files.readSymbolicLink(link).toString());
            }
            catch (IOException e) {
                throw IoErrors.map(e, "read the attributes of", link);
            }
        }
        Instant modified = timestamp(112);
        Instant created = (stat.get(JAVA_INT, 0) & STATX_BTIME) != 0 ? timestamp(80) : modified;
        Attributes extra = new Attributes(OptionalInt.of(mode & 0777), Optional.of(created), target, Map.of(), Map.of());
        long size = type == EntryType.FILE ? stat.get(JAVA_LONG, 40) : 0;
        return new Entry(path.resolve(name), type, size, modified, extra);
    }

    private Instant timestamp(long offset) {
        return Instant.ofEpochSecond(stat.get(JAVA_LONG, offset), Integer.toUnsignedLong(stat.get(JAVA_INT, offset + 8)));
    }

    private int errno() {
        return (int) ERRNO.get(state, 0L);
    }

    /**
     * Closes the directory and gives the memory back, once: at the end of the listing, and again (a no-op) when
     * the stream is closed. Nothing reads the memory after: {@link #more} stops at a closed descriptor.
     */
    private void close() {
        int open = fd;
        if (open >= 0) {
            fd = -1;
            int result;
            try {
                result = (int) (long) SYSCALL.invokeExact(state, CLOSE, (long) open, 0L, 0L, 0L, 0L, 0L);
            }
            catch (Throwable e) {
                throw new IllegalStateException(e);
            }
            int code = result < 0 ? errno() : 0;
            POOL.offer(memory);
            if (result < 0) {
                throw IoErrors.map(CALLS.error(code, "close", directory), "close the listing of", directory);
            }
        }
    }

    /** One listing's native memory. */
    private record Memory(MemorySegment buffer, MemorySegment stat, MemorySegment state) {
        static Memory allocate(long errnoSize) {
            // freed by the collector where it is not pooled: a stream may be drained and closed on different threads, which a confined arena refuses
            // (one arena for the three: the calls get the buffers as addresses, and the errno segment, passed as a segment,
            // keeps the arena, so the buffers too, alive while a call runs)
            Arena arena = Arena.ofAuto();
            return new Memory(arena.allocate(BUFFER_SIZE, 8), arena.allocate(STATX_SIZE, 8), arena.allocate(errnoSize));
        }
    }
}
