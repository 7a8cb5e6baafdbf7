package io.mover.plugins.local;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

import io.mover.spi.Entry;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.RelativePath;
import io.mover.spi.SinkWriter;
import io.mover.spi.ZeroBlocks;

import static java.util.Objects.requireNonNull;

/**
 * Writes one file of a {@link LocalSink} into its temporary and renames it into place at commit.
 * Thread-safe: positional writes go straight to the {@link FileChannel}, which allows them
 * concurrently; closing the channel (abort) makes a blocked write fail with CANCELLED.
 */
final class LocalSinkWriter implements SinkWriter {
    private final RelativePath path;
    private final Path target;
    private final Path temporary;
    private final FileChannel channel;
    private final Entry entry;
    private final boolean fsync;
    /** The temporary was created with the source's mode already. */
    private final boolean modeSet;
    /** The sink's set of open temporaries, which its stale-temporary sweep must leave alone. */
    private final Set<Path> open;
    private final boolean nativeTimes;
    private final AtomicBoolean finished = new AtomicBoolean();
    /** Where blocks of zeros may go unwritten: holes (sparse) or allocated ranges. */
    private final UnwrittenZeros zeros;
    /** Present when the commit flushes: a large file is then flushed on its way too, so that the commit has little left. */
    private final Optional<WriteBehind> writeBehind;

    /**
     * @param nativeTimes whether the mtime may be set through the FFM API: only on a local disk, since a native
     *     call blocks its virtual thread's carrier, which the JDK's own file calls compensate for and FFM does not
     * @param existing the bytes the temporary held when it was opened: 0 when this writer created it; a partial
     *     continued from an earlier run holds bytes this writer does not know of, so every block of zeros up to
     *     there is written
     * @param leaveHoles blocks of zeros stay holes (the sink's sparse, on a temporary this writer created)
     */
    LocalSinkWriter(RelativePath path, Path target, Path temporary, FileChannel channel, Entry entry, boolean fsync, boolean modeSet,
            boolean nativeTimes, Set<Path> open, long existing, boolean leaveHoles) {
        this.path = requireNonNull(path, "path is null");
        this.target = requireNonNull(target, "target is null");
        this.temporary = requireNonNull(temporary, "temporary is null");
        this.channel = requireNonNull(channel, "channel is null");
        this.entry = requireNonNull(entry, "entry is null");
        this.fsync = fsync;
        this.modeSet = modeSet;
        this.nativeTimes = nativeTimes;
        this.open = requireNonNull(open, "open is null");
        // fallocate is a native call: taken where the times are (a local disk), for the same reason
        this.zeros = new UnwrittenZeros(existing, leaveHoles, nativeTimes ? LinuxCalls.INSTANCE : Optional.empty(), temporary);
        this.writeBehind = fsync ? Optional.of(new WriteBehind(() -> channel.force(false), WriteBehind.EVERY)) : Optional.empty();
    }

    @Override
    public void write(long position, ByteBuffer source) {
        // an aborted writer fails every write, left out or not
        if (channel.isOpen() && zeros.leftOut(position, source)) {
            source.position(source.limit());
            return;
        }
        long at = position;
        try {
            while (source.hasRemaining()) {
                at += channel.write(source, at);
            }
            long written = at - position;
            writeBehind.ifPresent(behind -> behind.wrote(written));
        }
        catch (ClosedChannelException e) {
            throw new MoverException(ErrorCode.CANCELLED, "write to " + target + " was aborted", e);
        }
        catch (IOException e) {
            throw IoErrors.map(e, "write", target);
        }
    }

    /**
     * A block known to be zeros (the engine's or a link's zero block): where nothing was written yet, a hole with
     * sparse on, otherwise allocated without a write ({@link UnwrittenZeros}); elsewhere written.
     */
    @Override
    public void writeZeros(long position, int length) {
        if (channel.isOpen() && zeros.placed(position, length)) {
            return;
        }
        write(position, ZeroBlocks.zeros(length));
    }

    /**
     * Fills the temporary from {@code source}, the whole of it, in the kernel: {@link FileChannel#transferTo}
     * is {@code copy_file_range} on Linux, so the bytes never enter the JVM (and a file system with
     * reflinks may share extents instead of copying them). One call asks for all that is left, as cp
     * does: the kernel moves up to 2 GiB a call, and smaller requests measured up to twice the system
     * time here. An abort closes the channel, which ends a call in progress.
     */
    void transferFrom(FileChannel source, long size) {
        long position = 0;
        try {
            while (position < size) {
                long copied = source.transferTo(position, size - position, channel);
                if (copied <= 0) {
                    throw new MoverException(ErrorCode.SOURCE_CHANGED, "file shrank while it was copied (" + position + " of " + size + " bytes)");
                }
                position += copied;
            }
        }
        catch (ClosedChannelException e) {
            throw new MoverException(ErrorCode.CANCELLED, "copy to " + target + " was aborted", e);
        }
        catch (IOException e) {
            throw IoErrors.map(e, "write", target);
        }
    }

    @Override
    public Entry commit() {
        if (finished.get()) {
            throw new IllegalStateException("writer for " + path + " is already committed or aborted");
        }
        try {
            extendOverHoles();
            zeros.close();
            if (fsync) {
                // the flushes on the way first: one in flight, and any that failed, which this fsync would not report
                if (writeBehind.isPresent()) {
                    writeBehind.get().settle();
                }
                channel.force(true);
            }
            channel.close();
            LocalFiles.applyAttributesToOwnFile(temporary, entry, modeSet, nativeTimes);
            rename(temporary, target);
            finished.set(true);
            open.remove(temporary);
            return LocalFiles.entry(target, path, false)
                    .orElseThrow(() -> new MoverException(ErrorCode.IO_ERROR, target + " vanished right after it was renamed into place"));
        }
        catch (IOException e) {
            throw IoErrors.map(e, "commit", target);
        }
    }

    /** A file whose last blocks were zeros left out ends short of them: one zero byte at the end gives it its size. */
    private void extendOverHoles() throws IOException {
        long end = zeros.end();
        if (end > 0 && end > channel.size()) {   // no zeros left out: no fstat per commit
            if (channel.write(ByteBuffer.allocate(1), end - 1) != 1) {
                throw new IOException("could not extend the file to " + end + " bytes");
            }
        }
    }

    /** Renames a complete temporary over {@code target}, atomically. */
    static void rename(Path temporary, Path target) throws IOException {
        try {
            Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }
        catch (IOException e) {
            // rename(2) refuses to put a file over a directory (EISDIR); asked only then, it costs nothing per file
            if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
                throw new MoverException(ErrorCode.ALREADY_EXISTS, "cannot replace directory " + target + " with a file; delete it first");
            }
            throw e;
        }
    }

    /** Closes the temporary and leaves it in place, for a {@link LocalResumableWriter} to continue later. */
    void suspend() {
        if (!finished.compareAndSet(false, true)) {
            return;
        }
        try {
            channel.close();
        }
        catch (IOException e) {
            // what was written is in the file; the next resume checks every block anyway
        }
        finally {
            zeros.close();
            open.remove(temporary);
        }
    }

    @Override
    public void abort() {
        if (!finished.compareAndSet(false, true)) {
            return;
        }
        try {
            channel.close();
            Files.deleteIfExists(temporary);
        }
        catch (IOException e) {
            throw IoErrors.map(e, "remove the temporary", temporary);
        }
        finally {
            zeros.close();
            open.remove(temporary);
        }
    }
}
