package io.mover.plugins.local;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The few Linux system calls the local sink's small-file copy and the native listing make on raw descriptors,
 * through the FFM API ({@code java.lang.foreign}): {@code FileChannel} cannot set times on an open file, create an
 * unnamed file ({@code O_TMPFILE}) or name one ({@code linkat}), so through it every file cost an extra open, stat
 * and close for its times, and a name of its own to rename. Every call goes through one downcall handle, the C
 * library's {@code syscall(2)}: binding a handle spins classes and lambda forms the start-up cache cannot keep,
 * about 3 ms per signature, and the twelve there were (one per C function) cost each job 55 ms of its start.
 * {@link #INSTANCE} is empty off Linux, on a CPU whose numbers are not known here ({@link LinuxAbi}), or where
 * native access is refused; the sink and the listing then keep the JDK's path. Every call reports failure as the
 * {@link IOException} the JDK would throw for the same {@code errno}.
 */
final class LinuxCalls {
    static final int O_RDONLY = 0;
    static final int O_WRONLY = 1;
    static final int O_CREAT = 0100;
    static final int O_EXCL = 0200;
    static final int O_CLOEXEC = 02000000;
    static final int ENOENT = 2;
    static final int EINTR = 4;
    static final int EEXIST = 17;
    static final int EXDEV = 18;
    static final int ENOTDIR = 20;
    static final int EISDIR = 21;
    static final int EINVAL = 22;
    static final int EFBIG = 27;
    static final int ENOSPC = 28;
    static final int EROFS = 30;
    static final int ENAMETOOLONG = 36;
    static final int ENOSYS = 38;
    static final int EOPNOTSUPP = 95;
    static final int EDQUOT = 122;
    static final long AT_FDCWD = -100;
    private static final int AT_SYMLINK_NOFOLLOW = 0x100;
    private static final int AT_SYMLINK_FOLLOW = 0x400;
    private static final int AT_EMPTY_PATH = 0x1000;
    private static final int STATX_BASIC_AND_BTIME = 0x7ff | 0x800;
    private static final int STATX_BTIME = 0x800;
    private static final long UTIME_OMIT = (1L << 30) - 2;
    /** How often a call interrupted by a signal (EINTR) is made again before giving up. */
    private static final int MAX_INTERRUPTS = 16;

    /** Empty where these calls cannot be made; see the class comment. */
    static final Optional<LinuxCalls> INSTANCE = load();

    /** The numbers of this architecture's calls and flags. */
    final LinuxAbi abi;
    /** {@code O_TMPFILE}: {@code __O_TMPFILE | O_DIRECTORY}, whose value differs between architectures. */
    final int oTmpfile;
    /**
     * {@code long syscall(long number, long... six arguments)}, leaving {@code errno} in the segment passed first:
     * -1 and {@code errno} on failure. Pointers go as their addresses, unused arguments as 0 (the kernel reads
     * only those of the call). Package-visible for {@link NativeListing}.
     */
    final MethodHandle syscall;
    final VarHandle errno;
    final long errnoSize;
    final Charset pathCharset;

    /** What {@code statx} said of an open file. */
    record Stat(int mode, long size, Instant lastModified, Instant created) {}

    private LinuxCalls(LinuxAbi abi, Linker linker, Charset pathCharset) {
        this.abi = abi;
        this.oTmpfile = abi.oTmpfile();
        this.pathCharset = pathCharset;
        MemoryLayout state = Linker.Option.captureStateLayout();
        this.errno = state.varHandle(MemoryLayout.PathElement.groupElement("errno"));
        this.errnoSize = state.byteSize();
        this.syscall = linker.downcallHandle(linker.defaultLookup().find("syscall").orElseThrow(),
                FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG),
                Linker.Option.captureCallState("errno"), Linker.Option.firstVariadicArg(1));
    }

    private static Optional<LinuxCalls> load() {
        if (!"linux".equals(System.getProperty("os.name", "").toLowerCase(Locale.ROOT))) {
            return Optional.empty();
        }
        Optional<LinuxAbi> abi = LinuxAbi.of(System.getProperty("os.arch", ""));
        if (abi.isEmpty()) {
            return Optional.empty();
        }
        try {
            // names are encoded as the JDK encodes them (sun.jnu.encoding), so both paths name the same file
            Charset charset = Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8"));
            return Optional.of(new LinuxCalls(abi.get(), Linker.nativeLinker(), charset));
        }
        catch (RuntimeException | Error e) {
            // native access refused, an unknown charset: the Java path does the work
            return Optional.empty();
        }
    }

    /** {@code strerror}, bound at the first failure only: most jobs have none, and a binding costs a few ms. */
    private static final class Strerror {
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(
                Linker.nativeLinker().defaultLookup().find("strerror").orElseThrow(), FunctionDescriptor.of(ADDRESS, JAVA_INT));
    }

    /** {@code path} as the kernel knows it, or null when the JDK's name cannot be turned back into exact bytes. */
    byte[] nativePath(Path path) {
        String name = path.toString();
        if (name.indexOf('\uFFFD') >= 0 || name.indexOf('\0') >= 0) {
            return null;
        }
        try {
            ByteBuffer bytes = pathCharset.newEncoder().encode(CharBuffer.wrap(name));
            byte[] result = new byte[bytes.remaining() + 1];
            bytes.get(result, 0, result.length - 1);
            return result;
        }
        catch (CharacterCodingException e) {
            return null;
        }
    }

    /** {@code openat(AT_FDCWD, path, flags, mode)}; {@code path} from {@link #nativePath}. */
    int open(byte[] path, int flags, int mode, Path forErrors) throws IOException {
        return open((int) AT_FDCWD, path, flags, mode, forErrors);
    }

    /** {@code openat(dir, path, flags, mode)}: {@code path} relative to the folder open as {@code dir}. */
    int open(int dir, byte[] path, int flags, int mode, Path forErrors) throws IOException {
        return inArena((arena, state) -> {
            MemorySegment name = arena.allocateFrom(ValueLayout.JAVA_BYTE, path);
            for (int attempt = 0; ; attempt++) {
                int fd = (int) (long) syscall.invokeExact(state, abi.openat(), (long) dir, name.address(), (long) flags, (long) mode, 0L, 0L);
                if (fd >= 0) {
                    return fd;
                }
                checkInterrupted(state, attempt, "open", forErrors);
            }
        });
    }

    /** Copies up to {@code length} bytes from {@code in}'s position to {@code out}'s in the kernel; 0 at the end of {@code in}. */
    long copyFileRange(int in, int out, long length, Path forErrors) throws IOException {
        return inArena((arena, state) -> {
            for (int attempt = 0; ; attempt++) {
                long copied = (long) syscall.invokeExact(state, abi.copyFileRange(), (long) in, 0L, (long) out, 0L, length, 0L);
                if (copied >= 0) {
                    return copied;
                }
                checkInterrupted(state, attempt, "copy", forErrors);
            }
        });
    }

    /**
     * Sets the modification time of an open file ({@code futimens}); the access time stays as it is
     * ({@code UTIME_OMIT}), so, unlike the JDK's {@code setTimes}, nothing has to be read first.
     */
    void setModified(int fd, Instant modified, Path forErrors) throws IOException {
        setModified(fd, null, 0, modified, forErrors);
    }

    /** As {@link #setModified(int, Instant, Path)} by name, never following a final link: one {@code utimensat}. */
    void setModified(byte[] path, Instant modified, Path forErrors) throws IOException {
        setModified(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, modified, forErrors);
    }

    /** {@code utimensat(fd, path, times, flags)}; a null {@code path} sets the times of {@code fd} itself (futimens). */
    private void setModified(long fd, byte[] path, int flags, Instant modified, Path forErrors) throws IOException {
        inArena((arena, state) -> {
            MemorySegment name = path == null ? MemorySegment.NULL : arena.allocateFrom(ValueLayout.JAVA_BYTE, path);
            MemorySegment times = arena.allocate(JAVA_LONG, 4);
            times.setAtIndex(JAVA_LONG, 0, 0);
            times.setAtIndex(JAVA_LONG, 1, UTIME_OMIT);
            times.setAtIndex(JAVA_LONG, 2, modified.getEpochSecond());
            times.setAtIndex(JAVA_LONG, 3, modified.getNano());
            if (setTimes(state, fd, name, times, flags) < 0) {
                // as the JDK does: a file system that refuses a time before 1970 gets 1970
                if ((int) errno.get(state, 0L) != EINVAL || modified.getEpochSecond() >= 0) {
                    throw error((int) errno.get(state, 0L), "set the times of", forErrors);
                }
                times.setAtIndex(JAVA_LONG, 2, 0);
                times.setAtIndex(JAVA_LONG, 3, 0);
                check(setTimes(state, fd, name, times, flags), state, "set the times of", forErrors);
            }
            return null;
        });
    }

    private int setTimes(MemorySegment state, long fd, MemorySegment name, MemorySegment times, int flags) throws Throwable {
        return (int) (long) syscall.invokeExact(state, abi.utimensat(), fd, name.address(), times.address(), (long) flags, 0L, 0L);
    }

    /** {@code posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL)}: only a hint, so a refusal is ignored. */
    void adviseSequential(int fd) {
        try {
            inArena((arena, state) -> (long) syscall.invokeExact(state, abi.fadvise64(), (long) fd, 0L, 0L, 2L, 0L, 0L));
        }
        catch (IOException e) {
            // not thrown: posix_fadvise returns its error, which is ignored
        }
    }

    void setMode(int fd, int mode, Path forErrors) throws IOException {
        inArena((arena, state) -> check((long) syscall.invokeExact(state, abi.fchmod(), (long) fd, (long) mode, 0L, 0L, 0L, 0L), state, "set the mode of", forErrors));
    }

    void force(int fd, Path forErrors) throws IOException {
        inArena((arena, state) -> check((long) syscall.invokeExact(state, abi.fsync(), (long) fd, 0L, 0L, 0L, 0L, 0L), state, "flush", forErrors));
    }

    void close(int fd, Path forErrors) throws IOException {
        inArena((arena, state) -> check((long) syscall.invokeExact(state, abi.close(), (long) fd, 0L, 0L, 0L, 0L, 0L), state, "close", forErrors));
    }

    /** {@code statx} of an open file: no path is looked up again. */
    Stat stat(int fd, Path forErrors) throws IOException {
        return inArena((arena, state) -> {
            MemorySegment buffer = arena.allocate(256, 8);
            MemorySegment empty = arena.allocateFrom("");
            check((long) syscall.invokeExact(state, abi.statx(), (long) fd, empty.address(), (long) AT_EMPTY_PATH, (long) STATX_BASIC_AND_BTIME,
                    buffer.address(), 0L), state, "read the attributes of", forErrors);
            Instant modified = timestamp(buffer, 112);
            // the JDK reports the modification time where the file system keeps no birth time
            Instant created = (buffer.get(JAVA_INT, 0) & STATX_BTIME) != 0 ? timestamp(buffer, 80) : modified;
            return new Stat(Short.toUnsignedInt(buffer.get(ValueLayout.JAVA_SHORT, 28)), buffer.get(JAVA_LONG, 40), modified, created);
        });
    }

    /**
     * Gives the unnamed file open as {@code fd} ({@code O_TMPFILE}) the name {@code name} in the folder open as
     * {@code dir}, through its {@code /proc/self/fd} link (the {@code AT_EMPTY_PATH} form needs a capability).
     * Fails with {@code EEXIST} when the name is taken: a link never replaces a file.
     */
    void link(int fd, int dir, byte[] name, Path forErrors) throws IOException {
        inArena((arena, state) -> {
            MemorySegment from = arena.allocateFrom("/proc/self/fd/" + fd);
            MemorySegment to = arena.allocateFrom(ValueLayout.JAVA_BYTE, name);
            return check((long) syscall.invokeExact(state, abi.linkat(), AT_FDCWD, from.address(), (long) dir, to.address(), (long) AT_SYMLINK_FOLLOW, 0L),
                    state, "name", forErrors);
        });
    }

    /** One call's native memory: its arguments and the {@code errno} it leaves, freed when it returns. */
    interface NativeCall<T> {
        T call(Arena arena, MemorySegment state) throws Throwable;
    }

    <T> T inArena(NativeCall<T> body) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            return body.call(arena, arena.allocate(errnoSize));
        }
        catch (IOException | RuntimeException | Error e) {
            throw e;
        }
        catch (Throwable e) {
            // invokeExact declares Throwable; a downcall throws nothing else
            throw new IllegalStateException(e);
        }
    }

    private static Instant timestamp(MemorySegment statx, long offset) {
        return Instant.ofEpochSecond(statx.get(JAVA_LONG, offset), Integer.toUnsignedLong(statx.get(JAVA_INT, offset + 8)));
    }

    Void check(long result, MemorySegment state, String action, Path path) throws IOException {
        if (result < 0) {
            throw error((int) errno.get(state, 0L), action, path);
        }
        return null;
    }

    void checkInterrupted(MemorySegment state, int attempt, String action, Path path) throws IOException {
        int code = (int) errno.get(state, 0L);
        if (code != EINTR || attempt >= MAX_INTERRUPTS) {
            throw error(code, action, path);
        }
    }

    /** The failure of a call with {@code code}, the C library's text as its reason (what {@link IoErrors} reads). */
    NativeError error(int code, String action, Path path) {
        String reason;
        try {
            reason = ((MemorySegment) Strerror.HANDLE.invokeExact(code)).reinterpret(256).getString(0);
        }
        catch (Throwable e) {
            reason = "error " + code;
        }
        return new NativeError(code, reason, action, path);
    }
}
