package io.mover.plugins.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

import io.mover.spi.Attributes;
import io.mover.spi.Entry;
import io.mover.spi.EntryType;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.RelativePath;

import static io.mover.plugins.local.LinuxCalls.O_CLOEXEC;
import static io.mover.plugins.local.LinuxCalls.O_CREAT;
import static io.mover.plugins.local.LinuxCalls.O_EXCL;
import static io.mover.plugins.local.LinuxCalls.O_RDONLY;
import static io.mover.plugins.local.LinuxCalls.O_WRONLY;
import static java.util.Objects.requireNonNull;

/**
 * A local file copied into the sink on raw descriptors ({@link LinuxCalls}): the bytes moved by
 * {@code copy_file_range} (which also notices a source that changed size), the mode (only when the umask took
 * bits) and the modification time set on the open descriptor, the committed entry read from it, then the file
 * named. Per file: two opens, one copy, one {@code futimens}, one {@code statx}, a {@code linkat} (or a rename)
 * and two closes, where the {@code FileChannel} path made three opens and closes, three statx, two fstat and a
 * rename; and, for a file below a subfolder, the folder's {@code openat2} and close.
 * <p>
 * The file is made and named relative to its folder's descriptor, opened beneath the sink's root
 * ({@link BeneathRoot}: {@code RESOLVE_BENEATH}), never by a path: a folder swapped for a link to elsewhere after
 * the sink checked it cannot receive the file (the check is cached per folder, so the window is not small).
 * Where {@code openat2} is missing every file takes the Java path.
 * <p>
 * Nothing partial is ever visible. By default the file is created unnamed ({@code O_TMPFILE}) in its final
 * folder and given its name by {@code linkat} once complete: an abort or a crash leaves nothing behind, and
 * no rename is needed. A link never replaces a file, so where the name is taken the file is linked under a
 * temporary name and renamed over it, as before. Where the file system refuses {@code O_TMPFILE}, every
 * file gets a temporary name and a rename. {@code -Dmover.local.tmpfile=false} forces that path.
 * Thread-safe.
 */
final class LocalKernelCopy {
    /**
     * From this size on the source is read with {@code POSIX_FADV_SEQUENTIAL}, as cp does (a readahead window
     * twice the default); a smaller file is read whole by its first request anyway.
     */
    private static final long SEQUENTIAL_FROM = 256 * 1024;
    private static final byte[] DOT = {'.', 0};
    /**
     * The most one copy_file_range asks for. A native call holds its virtual thread's carrier for as long as it
     * runs (the JDK's own file calls add a carrier meanwhile, FFM does not), so a file of gigabytes goes in
     * calls of milliseconds, the carrier offered to others between them, and a cancel (an interrupt, SPI 1.5)
     * is seen between them. The kernel's cost per byte is the same from 2 MiB calls to 2 GiB ones (system
     * time of a 1 GiB copy, measured here); a small file is one call.
     */
    static final long CHUNK = 8L << 20;

    private final LinuxCalls calls;
    /** The sink's root held open; empty where openat2 is missing, and then every file takes the Java path. */
    private final Optional<BeneathRoot> beneath;
    private final String jobKey;
    private final boolean fsync;
    private final Set<Path> open;
    private final AtomicBoolean tmpfile;
    private final UnnamedLinks links;
    /** Cleared when copy_file_range refuses this pair of file systems: the Java path (which falls back) copies then. */
    private final AtomicBoolean usable = new AtomicBoolean(true);

    /** {@code linkByDescriptor}: false names every unnamed file through {@code /proc/self/fd} from the start (tests use it). */
    LocalKernelCopy(LinuxCalls calls, Optional<BeneathRoot> beneath, String jobKey, boolean fsync, Set<Path> open, boolean tmpfile,
            boolean linkByDescriptor) {
        this.calls = requireNonNull(calls, "calls is null");
        this.beneath = requireNonNull(beneath, "beneath is null");
        this.jobKey = requireNonNull(jobKey, "jobKey is null");
        this.fsync = fsync;
        this.open = requireNonNull(open, "open is null");
        // linkat names an unnamed file through /proc/self/fd where the kernel refuses it by descriptor
        this.tmpfile = new AtomicBoolean(tmpfile && Files.isDirectory(Path.of("/proc/self/fd")));
        this.links = new UnnamedLinks(calls, linkByDescriptor);
    }

    /** The default: O_TMPFILE unless {@code -Dmover.local.tmpfile=false}. */
    static boolean tmpfileByDefault() {
        return !"false".equalsIgnoreCase(System.getProperty("mover.local.tmpfile", "true"));
    }

    /** Whether unnamed files are (still) used; false after the file system refused one. */
    boolean usesTmpfile() {
        return tmpfile.get();
    }

    /** The sink is closed: its root's descriptor too. */
    void close() {
        beneath.ifPresent(BeneathRoot::close);
    }

    /** False once copy_file_range refused this sink's pair of file systems; for tests. */
    boolean usable() {
        return usable.get();
    }

    /** Whether unnamed files are (still) named by their descriptor; for tests. */
    boolean linksByDescriptor() {
        return links.byDescriptor();
    }

    /** The committed entry, or empty when this file cannot be copied here and the caller must use the Java path. */
    Optional<Entry> copy(Path source, Path target, RelativePath path, Entry entry) {
        byte[] sourceName = calls.nativePath(source);
        byte[] name = calls.nativeName(path.name());
        if (sourceName == null || name == null || beneath.isEmpty() || !beneath.get().isOpen() || !usable.get()) {
            return Optional.empty();
        }
        // one block of native memory for all of this file's calls
        try (NativeScratch scratch = calls.scratch()) {
            int in;
            try {
                in = calls.open(scratch, (int) LinuxCalls.AT_FDCWD, sourceName, O_RDONLY | O_CLOEXEC, 0, source);
            }
            catch (IOException e) {
                throw IoErrors.map(e, "open", source);
            }
            int folder = -1;
            try {
                if (entry.size() >= SEQUENTIAL_FROM) {
                    calls.adviseSequential(scratch, in);
                }
                // the folder by descriptor, beneath the root: a link swapped in since the sink checked the path leads nowhere
                folder = beneath.get().folder(scratch, path.parent(), target);
                return copyOpen(scratch, in, new Named(folder, name, target), path, entry);
            }
            catch (IOException e) {
                throw IoErrors.map(e, "open", target.getParent());
            }
            finally {
                if (folder >= 0) {
                    beneath.get().closeFolder(scratch, folder);
                }
                closeQuietly(scratch, in, source);
            }
        }
    }

    /** Where the file goes: its folder's descriptor and its name there; {@code target} for messages. */
    private record Named(int folder, byte[] name, Path target) {}

    private Optional<Entry> copyOpen(NativeScratch scratch, int in, Named to, RelativePath path, Entry entry) {
        BeneathRoot at = beneath.orElseThrow();
        Path target = to.target();
        OptionalInt sourceMode = LocalFiles.POSIX ? entry.attributes().posixMode() : OptionalInt.empty();
        // the JDK's default mode for a new file where the source has none
        int mode = sourceMode.orElse(0666);
        byte[] temporary = null;
        int out = -1;
        boolean committed = false;
        try {
            out = createUnnamed(scratch, to.folder(), mode, target);
            if (out < 0) {
                temporary = temporaryName(path);
                out = calls.open(scratch, to.folder(), temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode, target);
                open.add(temporaryPath(target, path));
            }
            if (!fill(scratch, in, out, entry.size(), target)) {
                return Optional.empty();
            }
            if (sourceMode.isPresent() && !LocalFiles.createdWithExactMode(mode)) {
                calls.setMode(scratch, out, mode, target);
            }
            calls.setModified(scratch, out, entry.lastModified(), target);
            if (fsync) {
                calls.force(scratch, out, target);
            }
            LinuxCalls.Stat written = calls.stat(scratch, out, target);
            if (temporary == null) {
                temporary = linkUnnamed(scratch, out, to, path);
            }
            if (temporary != null) {
                // closed before the rename, its error checked: on a mounted share close reports failed writes
                int named = out;
                out = -1;
                calls.close(scratch, named, target);
                rename(scratch, to, temporary);
            }
            committed = true;
            OptionalInt writtenMode = LocalFiles.POSIX ? OptionalInt.of(written.mode() & 0777) : OptionalInt.empty();
            Attributes attributes = new Attributes(writtenMode, Optional.of(written.created()), Optional.empty(), Map.of(), Map.of());
            return Optional.of(new Entry(path, EntryType.FILE, written.size(), written.lastModified(), attributes));
        }
        catch (IOException e) {
            throw IoErrors.map(e, "write", target);
        }
        finally {
            if (out >= 0) {
                closeQuietly(scratch, out, target);
            }
            if (temporary != null) {
                if (!committed) {
                    at.unlinkQuietly(scratch, to.folder(), temporary);
                }
                open.remove(temporaryPath(target, path));
            }
        }
    }

    /** An unnamed file in the folder, or -1 where unnamed files are not used (or refused: then never again). */
    private int createUnnamed(NativeScratch scratch, int folder, int mode, Path target) throws IOException {
        if (!tmpfile.get()) {
            return -1;
        }
        try {
            return calls.open(scratch, folder, DOT, calls.oTmpfile | O_WRONLY | O_CLOEXEC, mode, target);
        }
        catch (NativeError e) {
            // no O_TMPFILE in this file system (EOPNOTSUPP) or kernel (EISDIR: taken for O_DIRECTORY alone; EINVAL)
            if (e.code() == LinuxCalls.EOPNOTSUPP || e.code() == LinuxCalls.EISDIR || e.code() == LinuxCalls.EINVAL) {
                tmpfile.set(false);
                return -1;
            }
            throw e;
        }
    }

    /**
     * Names the complete unnamed file; null when done. A link cannot replace a file, so when the name is taken
     * the file is named a temporary instead, returned for the caller to rename over it.
     */
    private byte[] linkUnnamed(NativeScratch scratch, int out, Named to, RelativePath path) throws IOException {
        try {
            links.link(scratch, out, to.folder(), to.name(), to.target());
            return null;
        }
        catch (NativeError e) {
            if (e.code() != LinuxCalls.EEXIST) {
                throw e;
            }
        }
        byte[] temporary = temporaryName(path);
        Path named = temporaryPath(to.target(), path);
        open.add(named);
        try {
            links.link(scratch, out, to.folder(), temporary, named);
        }
        catch (IOException | RuntimeException e) {
            open.remove(named);
            throw e;
        }
        return temporary;
    }

    /** The temporary over the file's name, in its folder; a directory of that name is refused, as {@link LocalSinkWriter#rename} does. */
    private void rename(NativeScratch scratch, Named to, byte[] temporary) throws IOException {
        try {
            beneath.orElseThrow().rename(scratch, to.folder(), temporary, to.name(), to.target());
        }
        catch (NativeError e) {
            if (e.code() == LinuxCalls.EISDIR) {
                throw new MoverException(ErrorCode.ALREADY_EXISTS, "cannot replace directory " + to.target() + " with a file; delete it first");
            }
            throw e;
        }
    }

    private byte[] temporaryName(RelativePath path) throws IOException {
        byte[] name = calls.nativeName(LocalTemporaries.name(jobKey, path.name()));
        if (name == null) {
            throw new java.nio.file.FileSystemException(path.toString(), null, "cannot name a temporary in the system's encoding");
        }
        return name;
    }

    /** The temporary's path, for the sink's set of open temporaries (which the sweep of stale ones leaves alone). */
    private Path temporaryPath(Path target, RelativePath path) {
        return target.resolveSibling(LocalTemporaries.name(jobKey, path.name()));
    }

    /**
     * The whole file by copy_file_range; false when the kernel refuses this pair at the first call. It asks for
     * one byte more than the listed size, so that a file which changed since it was listed is caught by the
     * copy itself, without a stat of the source: more bytes than listed, or the end before them.
     */
    private boolean fill(NativeScratch scratch, int in, int out, long size, Path target) throws IOException {
        long position = 0;
        // bounded: each round moves at least one byte, and at most size + 1 bytes are asked for in all
        while (position <= size) {
            long wanted = Math.min(CHUNK, size + 1 - position);
            long copied;
            try {
                copied = calls.copyFileRange(scratch, in, out, wanted, target);
            }
            catch (NativeError e) {
                int code = e.code();
                if (position == 0 && (code == LinuxCalls.EXDEV || code == LinuxCalls.ENOSYS || code == LinuxCalls.EOPNOTSUPP || code == LinuxCalls.EINVAL)) {
                    usable.set(false);
                    return false;
                }
                throw e;
            }
            position += copied;
            // short of what was asked and at the listed size: the end of the file (no call needed to see 0)
            if (copied == 0 || (copied < wanted && position == size)) {
                break;
            }
            if (position < size) {
                between(position, size, target);
            }
        }
        if (position != size) {
            throw new MoverException(ErrorCode.SOURCE_CHANGED, "size changed from " + size + " to " + (position > size ? "more" : position)
                    + " bytes since it was listed");
        }
        return true;
    }

    /** Between two calls of a large file: a cancel ends the copy (the unnamed file or temporary goes with it), others get the carrier. */
    private static void between(long position, long size, Path target) {
        if (Thread.currentThread().isInterrupted()) {
            throw new MoverException(ErrorCode.CANCELLED, "copy to " + target + " was cancelled after " + position + " of " + size + " bytes");
        }
        Thread.yield();
    }

    private void closeQuietly(NativeScratch scratch, int fd, Path path) {
        try {
            calls.close(scratch, fd, path);
        }
        catch (IOException e) {
            // a read-only descriptor, or one whose file is named and whose times are set: nothing is lost
        }
    }
}
