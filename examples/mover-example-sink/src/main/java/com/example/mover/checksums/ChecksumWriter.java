package com.example.mover.checksums;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.concurrent.atomic.AtomicBoolean;

import io.mover.spi.Attributes;
import io.mover.spi.Entry;
import io.mover.spi.EntryType;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.RelativePath;
import io.mover.spi.SinkWriter;

import static java.util.Objects.requireNonNull;

/**
 * One file of a {@link ChecksumSink}. Writes go straight to the temporary's {@link FileChannel}, which
 * takes positional writes from several threads at once. The checksum is computed at commit by reading
 * the temporary back: writes arrive in any order, so it cannot be computed as they come.
 *
 * <p>Commit order: checksum sidecar first, then the data. A crash in between leaves a sidecar for a
 * file that is not there (or still holds the old bytes), which the next run rewrites; the other order
 * would leave a visible file with no checksum.
 */
final class ChecksumWriter implements SinkWriter {
    /** Where one file goes: its path, final and temporary data files, its sidecar, and the job it belongs to. */
    record Target(RelativePath path, Path data, Path temporary, Path sidecar, String jobKey) {
        Target {
            requireNonNull(path, "path is null");
            requireNonNull(data, "data is null");
            requireNonNull(temporary, "temporary is null");
            requireNonNull(sidecar, "sidecar is null");
            requireNonNull(jobKey, "jobKey is null");
        }
    }

    private final Target target;
    private final FileChannel channel;
    private final Entry source;
    private final boolean fsync;
    private final Runnable onFinish;
    private final AtomicBoolean finished = new AtomicBoolean();

    ChecksumWriter(Target target, FileChannel channel, Entry source, boolean fsync, Runnable onFinish) {
        this.target = requireNonNull(target, "target is null");
        this.channel = requireNonNull(channel, "channel is null");
        this.source = requireNonNull(source, "source is null");
        this.fsync = fsync;
        this.onFinish = requireNonNull(onFinish, "onFinish is null");
    }

    @Override
    public void write(long position, ByteBuffer bytes) {
        long at = position;
        try {
            // the caller owns the buffer: consume it fully here and keep no reference
            while (bytes.hasRemaining()) {
                at += channel.write(bytes, at);
            }
        }
        catch (ClosedChannelException e) {
            throw new MoverException(ErrorCode.CANCELLED, "write to " + target.path() + " was aborted", e);
        }
        catch (IOException e) {
            throw IoFailures.map(e, "write", target.data());
        }
    }

    @Override
    public Entry commit() {
        if (finished.get()) {
            throw new IllegalStateException("the writer of " + target.path() + " is already committed or aborted");
        }
        try {
            if (fsync) {
                channel.force(true);
            }
            channel.close();
            if (Files.isDirectory(target.data(), LinkOption.NOFOLLOW_LINKS)) {
                throw new MoverException(ErrorCode.ALREADY_EXISTS, "cannot replace directory " + target.path() + " with a file; delete it first");
            }
            writeSidecar(StoreLayout.hashOf(target.temporary()));
            Files.setLastModifiedTime(target.temporary(), FileTime.from(source.lastModified()));
            Files.move(target.temporary(), target.data(), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            finished.set(true);
            onFinish.run();
            long size = Files.size(target.data());
            FileTime mtime = Files.getLastModifiedTime(target.data(), LinkOption.NOFOLLOW_LINKS);
            return new Entry(target.path(), EntryType.FILE, size, mtime.toInstant(), Attributes.NONE);
        }
        catch (IOException e) {
            throw IoFailures.map(e, "commit", target.data());
        }
    }

    /** The sidecar is itself written to a temporary and renamed, so a reader never sees half a checksum. */
    private void writeSidecar(String hex) throws IOException {
        Path directory = target.sidecar().getParent();
        Files.createDirectories(directory);
        Path temporary = directory.resolve(StoreLayout.temporaryName(target.jobKey()));
        try {
            try (FileChannel out = FileChannel.open(temporary, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                out.write(ByteBuffer.wrap((hex + "\n").getBytes(StandardCharsets.US_ASCII)));
                if (fsync) {
                    out.force(true);
                }
            }
            Files.move(temporary, target.sidecar(), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }
        finally {
            Files.deleteIfExists(temporary);
        }
    }

    @Override
    public void abort() {
        if (!finished.compareAndSet(false, true)) {
            return;
        }
        try {
            channel.close();
            Files.deleteIfExists(target.temporary());
        }
        catch (NoSuchFileException gone) {
            // already removed (a stale-temporary sweep of another run): the outcome asked for
        }
        catch (IOException e) {
            throw IoFailures.map(e, "remove the temporary of", target.data());
        }
        finally {
            onFinish.run();
        }
    }
}
