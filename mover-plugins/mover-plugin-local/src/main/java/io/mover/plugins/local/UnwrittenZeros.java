package io.mover.plugins.local;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Puts a {@link LocalSinkWriter}'s blocks of zeros in place without writing them, where nothing was written in the
 * temporary yet ({@link SparseWrites} keeps what was): a hole with {@code sparse} on, otherwise the range allocated
 * with {@code fallocate} mode 0, which reads zeros and reserves the disk space as written zeros would (the file is
 * not sparse: {@code du} says its size), at the cost of an extent update instead of 1 MiB copied into the page cache
 * and written to the disk (1 GiB of zeros received over TCP: the receiver's {@code pwrite} was most of its CPU;
 * issue 5). Mode 0 leaves bytes already in the range as they are, so it is only used where this writer wrote
 * nothing: the range of a new temporary not yet written, or past the end a continued partial had when it was
 * opened. A write there later (another stream of the same file) simply lands on the allocated range; a block of
 * zeros over written bytes is written. {@code FALLOC_FL_ZERO_RANGE}, which would also zero written bytes, is not
 * needed for that and is refused by more file systems (tmpfs, NFS). The commit's {@code fsync} persists the extents
 * with the file's size. The descriptor is the temporary opened again by name at its first block of zeros (the
 * {@code FileChannel} does not tell its own): a temporary created with a mode that denies its owner writing (a
 * read-only source file, not as root) cannot be, and its zeros are written as before. Thread-safe.
 */
final class UnwrittenZeros {
    private final SparseWrites written;
    private final boolean holes;
    /** Present on Linux on a local disk: a native call blocks its virtual thread's carrier, as {@link LocalSinkWriter} says. */
    private final Optional<LinuxCalls> calls;
    private final Path temporary;
    /** Whether anything can be left unwritten here: otherwise writes are not even recorded. */
    private final boolean tracked;
    /** A descriptor of the temporary for {@code fallocate}, opened at the first block of zeros; -1 before. Guarded by this. */
    private int fd = -1;
    /** Set when {@code fallocate} or its descriptor failed, or by {@link #close}: every later block of zeros is written. Guarded by this. */
    private boolean off;

    /**
     * @param existing the bytes the temporary held when it was opened (0 when created): written, as far as this is concerned
     * @param holes leave holes rather than allocate ({@code sparse}); only for a temporary this writer created
     */
    UnwrittenZeros(long existing, boolean holes, Optional<LinuxCalls> calls, Path temporary) {
        this.written = new SparseWrites();
        if (existing > 0) {
            written.wrote(0, existing);
        }
        this.holes = holes;
        this.calls = calls;
        this.temporary = temporary;
        this.tracked = holes || calls.isPresent();
    }

    /**
     * Called before {@code source} (at {@code position}) is written: true when it is zeros left out as a hole
     * (sparse only: the bytes are checked then), false when the caller must write it (recorded as written).
     */
    boolean leftOut(long position, ByteBuffer source) {
        if (!tracked) {
            return false;
        }
        int length = source.remaining();
        if (holes && SparseWrites.zeros(source) && written.leaveOut(position, length)) {
            return true;
        }
        written.wrote(position, length);
        return false;
    }

    /** Whether {@code length} zeros at {@code position} are in place without a write: false when the caller must write them. */
    boolean placed(long position, int length) {
        if (holes) {
            return written.leaveOut(position, length);
        }
        if (calls.isEmpty() || !written.leaveOut(position, length)) {
            return false;
        }
        return allocate(calls.get(), position, length);
    }

    /** Under the lock: {@link #close} cannot close the descriptor (and the kernel hand its number to another file) during a call. */
    private synchronized boolean allocate(LinuxCalls linux, long position, int length) {
        if (off) {
            return false;
        }
        try (NativeScratch scratch = linux.scratch()) {
            if (fd < 0) {
                byte[] name = linux.nativePath(temporary);
                if (name == null) {
                    off = true;
                    return false;
                }
                fd = linux.open(scratch, (int) LinuxCalls.AT_FDCWD, name, LinuxCalls.O_WRONLY | LinuxCalls.O_CLOEXEC | linux.abi.oNofollow(), 0, temporary);
            }
            linux.allocate(scratch, fd, 0, position, length, temporary);
            return true;
        }
        catch (IOException e) {
            // EOPNOTSUPP (a file system without it), ENOSPC, anything: the write that follows works or reports the error as any write does
            off = true;
            return false;
        }
    }

    /**
     * The end of the furthest block of zeros placed: the file must be at least this long at commit. A block left
     * a hole needs that; an allocated one extended the file already, unless the descriptor named another file than
     * the writer's channel (its name taken over in between), and then the file stays right, with a hole.
     */
    long end() {
        return written.end();
    }

    /** Closes the descriptor, once every call under way has returned; later blocks of zeros are written. */
    synchronized void close() {
        off = true;
        if (fd >= 0) {
            int open = fd;
            fd = -1;
            try {
                calls.orElseThrow().close(open, temporary);
            }
            catch (IOException e) {
                // a descriptor only allocated through: nothing of the file depends on its close
            }
        }
    }
}
