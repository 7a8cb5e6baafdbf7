package io.mover.plugins.local;

import java.io.IOException;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
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
 * {@link IOException} the JDK would throw for the same {@code errno}. A call's arguments and {@code errno} live in a
 * {@link NativeScratch} its caller holds (one per copied file), not in memory allocated for the call.
 */
final class LinuxCalls {
    static final int O_RDONLY = 0;
    static final int O_WRONLY = 1;
    static final int O_CREAT = 0100;
    static final int O_EXCL = 0200;
    static final int O_CLOEXEC = 02000000;
    static final int EPERM = 1;
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
    /** Names as the JDK encodes them ({@code sun.jnu.encoding}), so both paths name the same file. */
    private final NativeNames names;
    /**
     * The empty name ({@code AT_EMPTY_PATH} calls: the result's {@code statx}, {@code linkat} by descriptor) kept in
     * memory of its own for the whole run, so those calls copy no name into the scratch block.
     */
    private static final long EMPTY = java.lang.foreign.Arena.global().allocate(1).address();

    /** What {@code statx} said of an open file. */
    record Stat(int mode, long size, Instant lastModified, Instant created) {}

    private LinuxCalls(LinuxAbi abi, Linker linker, Charset pathCharset) {
        this.abi = abi;
        this.oTmpfile = abi.oTmpfile();
        this.pathCharset = pathCharset;
        this.names = new NativeNames(pathCharset);
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
        return names.encode(path.toString());
    }

    /** As {@link #nativePath} for a name, or a relative path, as a string. */
    byte[] nativeName(String name) {
        return names.encode(name);
    }

    /** A block of native memory for one file's calls; close it (try-with-resources) when they are done. */
    NativeScratch scratch() {
        return NativeScratch.take(errnoSize);
    }

    /** {@code syscall(number, ...)} with {@code errno} left in {@code scratch}: -1 on failure. */
    long call(NativeScratch scratch, long number, long a, long b, long c, long d, long e, long f) {
        try {
            return (long) syscall.invokeExact(scratch.state, number, a, b, c, d, e, f);
        }
        catch (RuntimeException | Error x) {
            throw x;
        }
        catch (Throwable x) {
            // invokeExact declares Throwable; a downcall throws nothing else
            throw new IllegalStateException(x);
        }
    }

    int errno(NativeScratch scratch) {
        return (int) errno.get(scratch.state, 0L);
    }

    /** The address of a name copied into the scratch block ({@link NativeScratch#first}), or the kernel's refusal of a name too long. */
    long name(long address, String action, Path forErrors) throws NativeError {
        if (address == 0L) {
            throw error(ENAMETOOLONG, action, forErrors);
        }
        return address;
    }

    /** {@code openat(AT_FDCWD, path, flags, mode)}; {@code path} from {@link #nativePath}. */
    int open(byte[] path, int flags, int mode, Path forErrors) throws IOException {
        try (NativeScratch scratch = scratch()) {
            return open(scratch, (int) AT_FDCWD, path, flags, mode, forErrors);
        }
    }

    /** {@code openat(dir, path, flags, mode)}: {@code path} relative to the folder open as {@code dir}. */
    int open(NativeScratch scratch, int dir, byte[] path, int flags, int mode, Path forErrors) throws IOException {
        long name = name(scratch.first(path), "open", forErrors);
        for (int attempt = 0; ; attempt++) {
            int fd = (int) call(scratch, abi.openat(), dir, name, flags, mode, 0L, 0L);
            if (fd >= 0) {
                return fd;
            }
            checkInterrupted(scratch, attempt, "open", forErrors);
        }
    }

    /** Copies up to {@code length} bytes from {@code in}'s position to {@code out}'s in the kernel; 0 at the end of {@code in}. */
    long copyFileRange(NativeScratch scratch, int in, int out, long length, Path forErrors) throws IOException {
        for (int attempt = 0; ; attempt++) {
            long copied = call(scratch, abi.copyFileRange(), in, 0L, out, 0L, length, 0L);
            if (copied >= 0) {
                return copied;
            }
            checkInterrupted(scratch, attempt, "copy", forErrors);
        }
    }

    /**
     * Sets the modification time of an open file ({@code futimens}); the access time stays as it is
     * ({@code UTIME_OMIT}), so, unlike the JDK's {@code setTimes}, nothing has to be read first.
     */
    void setModified(NativeScratch scratch, int fd, Instant modified, Path forErrors) throws IOException {
        setModified(scratch, fd, 0L, 0, modified, forErrors);
    }

    /** As {@link #setModified(NativeScratch, int, Instant, Path)} by name, never following a final link: one {@code utimensat}. */
    void setModified(byte[] path, Instant modified, Path forErrors) throws IOException {
        try (NativeScratch scratch = scratch()) {
            setModified(scratch, AT_FDCWD, name(scratch.first(path), "set the times of", forErrors), AT_SYMLINK_NOFOLLOW, modified, forErrors);
        }
    }

    /** {@code utimensat(fd, name, times, flags)}; a 0 {@code name} sets the times of {@code fd} itself (futimens). */
    private void setModified(NativeScratch scratch, long fd, long name, int flags, Instant modified, Path forErrors) throws IOException {
        MemorySegment times = scratch.data;
        times.setAtIndex(JAVA_LONG, 0, 0);
        times.setAtIndex(JAVA_LONG, 1, UTIME_OMIT);
        times.setAtIndex(JAVA_LONG, 2, modified.getEpochSecond());
        times.setAtIndex(JAVA_LONG, 3, modified.getNano());
        if (call(scratch, abi.utimensat(), fd, name, times.address(), flags, 0L, 0L) < 0) {
            // as the JDK does: a file system that refuses a time before 1970 gets 1970
            if (errno(scratch) != EINVAL || modified.getEpochSecond() >= 0) {
                throw error(errno(scratch), "set the times of", forErrors);
            }
            times.setAtIndex(JAVA_LONG, 2, 0);
            times.setAtIndex(JAVA_LONG, 3, 0);
            check(call(scratch, abi.utimensat(), fd, name, times.address(), flags, 0L, 0L), scratch, "set the times of", forErrors);
        }
    }

    /** {@code posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL)}: only a hint, so a refusal is ignored. */
    void adviseSequential(NativeScratch scratch, int fd) {
        call(scratch, abi.fadvise64(), fd, 0L, 0L, 2L, 0L, 0L);
    }

    /**
     * {@code fallocate(fd, mode, offset, length)}; mode 0 allocates the range, extending the file past its end,
     * and leaves the bytes already there as they are (a range never written reads zeros).
     */
    void allocate(NativeScratch scratch, int fd, int mode, long offset, long length, Path forErrors) throws IOException {
        for (int attempt = 0; ; attempt++) {
            if (call(scratch, abi.fallocate(), fd, mode, offset, length, 0L, 0L) == 0) {
                return;
            }
            checkInterrupted(scratch, attempt, "allocate", forErrors);
        }
    }

    void setMode(NativeScratch scratch, int fd, int mode, Path forErrors) throws IOException {
        check(call(scratch, abi.fchmod(), fd, mode, 0L, 0L, 0L, 0L), scratch, "set the mode of", forErrors);
    }

    void force(NativeScratch scratch, int fd, Path forErrors) throws IOException {
        check(call(scratch, abi.fsync(), fd, 0L, 0L, 0L, 0L, 0L), scratch, "flush", forErrors);
    }

    void close(int fd, Path forErrors) throws IOException {
        try (NativeScratch scratch = scratch()) {
            close(scratch, fd, forErrors);
        }
    }

    void close(NativeScratch scratch, int fd, Path forErrors) throws IOException {
        check(call(scratch, abi.close(), fd, 0L, 0L, 0L, 0L, 0L), scratch, "close", forErrors);
    }

    /** {@code statx} of an open file: no path is looked up again. */
    Stat stat(NativeScratch scratch, int fd, Path forErrors) throws IOException {
        MemorySegment buffer = scratch.data;
        check(call(scratch, abi.statx(), fd, EMPTY, AT_EMPTY_PATH, STATX_BASIC_AND_BTIME, buffer.address(), 0L),
                scratch, "read the attributes of", forErrors);
        Instant modified = timestamp(buffer, 112);
        // the JDK reports the modification time where the file system keeps no birth time
        Instant created = (buffer.get(JAVA_INT, 0) & STATX_BTIME) != 0 ? timestamp(buffer, 80) : modified;
        return new Stat(Short.toUnsignedInt(buffer.get(ValueLayout.JAVA_SHORT, 28)), buffer.get(JAVA_LONG, 40), modified, created);
    }

    /**
     * Gives the unnamed file open as {@code fd} ({@code O_TMPFILE}) the name {@code name} in the folder open as
     * {@code dir}. {@code byDescriptor}: by the descriptor itself ({@code AT_EMPTY_PATH}), which Linux 6.10 on
     * allows the process that opened the file (before, only with {@code CAP_DAC_READ_SEARCH}: ENOENT); otherwise
     * through its {@code /proc/self/fd} link ({@link UnnamedLinks} chooses).
     * Fails with {@code EEXIST} when the name is taken: a link never replaces a file.
     */
    void link(NativeScratch scratch, int fd, int dir, byte[] name, boolean byDescriptor, Path forErrors) throws IOException {
        long to = name(scratch.second(name), "name", forErrors);
        long result = byDescriptor
                ? call(scratch, abi.linkat(), fd, EMPTY, dir, to, AT_EMPTY_PATH, 0L)
                : call(scratch, abi.linkat(), AT_FDCWD, scratch.first(procLink(fd)), dir, to, AT_SYMLINK_FOLLOW, 0L);
        check(result, scratch, "name", forErrors);
    }

    private static byte[] procLink(int fd) {
        byte[] bytes = ("/proc/self/fd/" + fd).getBytes(StandardCharsets.US_ASCII);
        return Arrays.copyOf(bytes, bytes.length + 1);
    }

    private static Instant timestamp(MemorySegment statx, long offset) {
        return Instant.ofEpochSecond(statx.get(JAVA_LONG, offset), Integer.toUnsignedLong(statx.get(JAVA_INT, offset + 8)));
    }

    void check(long result, NativeScratch scratch, String action, Path path) throws IOException {
        if (result < 0) {
            throw error(errno(scratch), action, path);
        }
    }

    void checkInterrupted(NativeScratch scratch, int attempt, String action, Path path) throws IOException {
        int code = errno(scratch);
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
