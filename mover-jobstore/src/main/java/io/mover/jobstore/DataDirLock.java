package io.mover.jobstore;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

import static java.util.Objects.requireNonNull;

/**
 * The lock that keeps a second mover out of a data directory: an OS file lock on {@code <dataDir>/mover.lock},
 * which holds the owner's pid for the message. The OS drops the lock when the process dies, so a crash
 * leaves nothing to clean up; the file itself stays (deleting it would race with the next opener).
 *
 * <p>The lock is a POSIX record lock, which the OS drops when the holding process closes <em>any</em>
 * descriptor of the file: nothing in the holding process may open {@code mover.lock} besides this class.
 */
public final class DataDirLock implements AutoCloseable {
    public static final String FILE_NAME = "mover.lock";

    private final FileChannel channel;
    private final FileLock lock;

    private DataDirLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** Takes the lock, or fails at once with a one-line message naming the holder's pid. */
    public static DataDirLock acquire(Path dataDir) {
        requireNonNull(dataDir, "dataDir is null");
        Path file = dataDir.resolve(FILE_NAME);
        FileChannel channel = null;
        try {
            Files.createDirectories(dataDir);
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
            FileLock lock = tryLock(channel);
            if (lock == null) {
                channel.close();
                throw new MoverException(ErrorCode.INVALID_ARGUMENT, "data directory " + dataDir + " is in use by another mover (pid "
                        + holder(file) + "): stop it, or choose another --data-dir");
            }
            channel.truncate(0);
            channel.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)), 0);
            channel.force(false);
            return new DataDirLock(channel, lock);
        }
        catch (IOException e) {
            closeQuietly(channel);
            throw new MoverException(ErrorCode.PERMISSION_DENIED, "cannot lock data directory " + dataDir + ": " + e.getMessage(), e);
        }
    }

    private static FileLock tryLock(FileChannel channel) throws IOException {
        try {
            return channel.tryLock();
        }
        catch (OverlappingFileLockException e) {
            return null; // this very process holds it already (a second store opened on the same directory)
        }
    }

    private static String holder(Path file) {
        try {
            String pid = Files.readString(file, StandardCharsets.US_ASCII).strip();
            return pid.isEmpty() ? "unknown" : pid;
        }
        catch (IOException e) {
            return "unknown";
        }
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            }
            catch (IOException ignored) {
                // closing after a failure: the first error is the one to report
            }
        }
    }

    @Override
    public void close() {
        try {
            lock.release();
        }
        catch (IOException ignored) {
            // closing the channel below releases it too
        }
        closeQuietly(channel);
    }
}
