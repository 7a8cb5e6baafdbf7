package io.mover.spi;

import java.nio.ByteBuffer;

/**
 * Positional reads of one file.
 *
 * <p><b>Threads:</b> {@link #read} may be called concurrently from several threads with different
 * positions (the engine reads ranges of a large file in parallel through one reader), like
 * {@link java.nio.channels.FileChannel#read(ByteBuffer, long)}. {@link #close()} is called once, after
 * all reads have returned.
 *
 * <p><b>Buffers:</b> the caller owns {@code destination}; the reader fills it from its position towards
 * its limit, advances its position, and must not keep a reference to it after {@code read} returns.
 */
public interface SourceReader extends AutoCloseable {
    /** The file's size when it was opened. */
    long size();

    /**
     * Reads bytes starting at {@code position} into {@code destination} until it is full or the
     * file ends.
     *
     * @return the number of bytes read; 0 only at or past the end of the file (or when the buffer has no room)
     */
    int read(long position, ByteBuffer destination);

    /**
     * The job was cancelled: reads in flight end soon with {@link ErrorCode#CANCELLED} (a read waiting out a remote
     * service's throttling stops waiting), and later reads fail so. Called from another thread while reads may be in
     * flight; idempotent; {@link #close()} is still called. The default does nothing: reads end on their own.
     *
     * @since 1.2
     */
    default void abort() {
        // a reader whose reads never wait long needs nothing here
    }

    @Override
    void close();
}
