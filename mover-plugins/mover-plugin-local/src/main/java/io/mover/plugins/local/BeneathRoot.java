package io.mover.plugins.local;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Optional;

import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.RelativePath;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * A {@link LocalSink}'s root held open, and its folders opened beneath it by descriptor, for {@link LocalKernelCopy}:
 * a folder is looked up with {@code openat2(RESOLVE_BENEATH)}, so a link swapped in for a folder after
 * {@link LocalConfinement} checked it (a check it caches per folder) cannot lead the file out of the root; the file is
 * then created, named, renamed and removed relative to that descriptor ({@code openat}, {@code linkat} in
 * {@link LinuxCalls}; {@code renameat2}, {@code unlinkat} here), never by a path the kernel would resolve again.
 *
 * <p>Links that lead inside the root stay usable, as in the rest of the plugin: {@code RESOLVE_BENEATH} refuses an
 * absolute link whatever its target, so on a refusal the folder's real path is checked and opened with no link
 * allowed at all ({@code RESOLVE_NO_SYMLINKS}). {@link #open} is empty where {@code openat2} is missing (Linux before
 * 5.6, or refused by a seccomp filter): the sink then copies on its Java path. Thread-safe.
 */
final class BeneathRoot implements AutoCloseable {
    private static final long RESOLVE_NO_SYMLINKS = 0x04;
    private static final long RESOLVE_BENEATH = 0x08;
    /** {@code O_PATH}, the same on x86_64 and aarch64. */
    private static final int O_PATH = 010000000;
    private static final int EAGAIN = 11;
    private static final int ELOOP = 40;
    private static final byte[] DOT = {'.', 0};

    private final LinuxCalls calls;
    private final Path root;
    private final Path realRoot;
    private final int rootFd;
    private final int folderFlags;
    private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();

    private BeneathRoot(LinuxCalls calls, Path root, Path realRoot, int rootFd, int oDirectory) {
        this.calls = calls;
        this.root = root;
        this.realRoot = realRoot;
        this.rootFd = rootFd;
        this.folderFlags = O_PATH | oDirectory | LinuxCalls.O_CLOEXEC;
    }

    /** The root held open, or empty where {@code openat2} or a call here is missing: then the kernel copy is not used. */
    static Optional<BeneathRoot> open(LinuxCalls calls, Path root) {
        int oDirectory = calls.abi.oDirectory();
        int fd = -1;
        try {
            Path realRoot = root.toRealPath();
            byte[] name = calls.nativePath(realRoot);
            if (name == null) {
                return Optional.empty();
            }
            fd = calls.open(name, O_PATH | oDirectory | LinuxCalls.O_CLOEXEC, 0, root);
            BeneathRoot beneath = new BeneathRoot(calls, root, realRoot, fd, oDirectory);
            // one probe: ENOSYS (an old kernel) or EPERM (a seccomp filter) says the calls cannot be made here
            try (NativeScratch scratch = calls.scratch()) {
                calls.close(scratch, beneath.openat2(scratch, DOT, RESOLVE_BENEATH, root), root);
            }
            fd = -1;
            return Optional.of(beneath);
        }
        catch (IOException | RuntimeException | Error e) {
            return Optional.empty();
        }
        finally {
            if (fd >= 0) {
                try {
                    calls.close(fd, root);
                }
                catch (IOException e) {
                    // an O_PATH descriptor: nothing to lose
                }
            }
        }
    }

    /**
     * The folder {@code folder} of the root, opened {@code O_PATH}; {@link #rootFd()} itself for the root (do not close that).
     *
     * @throws MoverException INVALID_PATH when the folder leads outside the root through a link
     */
    int folder(NativeScratch scratch, RelativePath folder, Path forErrors) throws IOException {
        if (folder.isRoot()) {
            return rootFd;
        }
        byte[] name = calls.nativeName(folder.toString());
        if (name == null) {
            throw unnamable(forErrors);
        }
        try {
            return openat2(scratch, name, RESOLVE_BENEATH, forErrors);
        }
        catch (NativeError e) {
            if (e.code() != LinuxCalls.EXDEV && e.code() != ELOOP) {
                throw e;
            }
        }
        // a link on the way: an absolute one (refused whatever its target) or one leading out
        Path real = LocalFiles.resolve(root, folder).toRealPath();
        if (!real.startsWith(realRoot)) {
            throw escapes(folder);
        }
        byte[] inside = real.equals(realRoot) ? DOT : calls.nativePath(realRoot.relativize(real));
        if (inside == null) {
            // the link's target has a name the JDK decoded lossily: its string no longer names it
            throw unnamable(forErrors);
        }
        try {
            return openat2(scratch, inside, RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS, forErrors);
        }
        catch (NativeError e) {
            // a link swapped in since the real path was taken
            if (e.code() == LinuxCalls.EXDEV || e.code() == ELOOP) {
                throw escapes(folder);
            }
            throw e;
        }
    }

    int rootFd() {
        return rootFd;
    }

    /** {@code renameat2(dir, from, dir, to, 0)}: replaces a file, refuses (EISDIR) to replace a directory. */
    void rename(NativeScratch scratch, int dir, byte[] from, byte[] to, Path forErrors) throws IOException {
        long source = calls.name(scratch.first(from), "rename into", forErrors);
        long target = calls.name(scratch.second(to), "rename into", forErrors);
        calls.check(calls.call(scratch, calls.abi.renameat2(), dir, source, dir, target, 0L, 0L), scratch, "rename into", forErrors);
    }

    /** Removes {@code name} from {@code dir}; quietly (the next run's sweep removes a temporary left behind). */
    void unlinkQuietly(NativeScratch scratch, int dir, byte[] name) {
        long address = scratch.first(name);
        if (address != 0L) {
            calls.call(scratch, calls.abi.unlinkat(), dir, address, 0L, 0L, 0L, 0L);
        }
    }

    /** Closes a folder from {@link #folder}; the root stays open. */
    void closeFolder(NativeScratch scratch, int fd) {
        if (fd != rootFd) {
            // an O_PATH descriptor: nothing to lose, so its error is not read
            calls.call(scratch, calls.abi.close(), fd, 0L, 0L, 0L, 0L, 0L);
        }
    }

    /** Whether {@link #close} has not run: after it the sink's copies take the Java path. */
    boolean isOpen() {
        return !closed.get();
    }

    /** The root's descriptor is closed, once (a second close could close a descriptor reused by then). */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            calls.close(rootFd, root);
        }
        catch (IOException e) {
            // an O_PATH descriptor: nothing to lose
        }
    }

    /** {@code openat2(root, name, {O_PATH | O_DIRECTORY | O_CLOEXEC, 0, resolve})}, again on EAGAIN (a rename raced the lookup). */
    private int openat2(NativeScratch scratch, byte[] name, long resolve, Path forErrors) throws IOException {
        long path = calls.name(scratch.first(name), "open", forErrors);
        MemorySegment how = scratch.data;
        how.setAtIndex(JAVA_LONG, 0, folderFlags);
        how.setAtIndex(JAVA_LONG, 1, 0);
        how.setAtIndex(JAVA_LONG, 2, resolve);
        for (int attempt = 0; ; attempt++) {
            long fd = calls.call(scratch, calls.abi.openat2(), rootFd, path, how.address(), 3 * JAVA_LONG.byteSize(), 0L, 0L);
            if (fd >= 0) {
                return (int) fd;
            }
            if (calls.errno(scratch) != EAGAIN || attempt >= 16) {
                calls.checkInterrupted(scratch, attempt, "open", forErrors);
            }
        }
    }

    private static MoverException unnamable(Path forErrors) {
        return new MoverException(ErrorCode.INVALID_PATH, "cannot name " + forErrors + " in the system's encoding");
    }

    private MoverException escapes(RelativePath folder) {
        return new MoverException(ErrorCode.INVALID_PATH, "refusing '" + folder + "': it passes through a symbolic link that leads outside the destination " + root);
    }
}
