package io.mover.spi;

import java.nio.ByteBuffer;

/**
 * Writes one file at any positions, then makes it visible at once or not at all.
 *
 * <h2>Lifecycle</h2>
 * {@link #write} any number of times, in any order of positions (the engine writes ranges of a large
 * file in parallel), then exactly one of {@link #commit()} or {@link #abort()}. {@link #abort()} may also
 * follow a failed {@link #commit()}, and may be called more than once.
 *
 * <h2>Threads</h2>
 * {@link #write} may be called concurrently from several threads, always with ranges that do not
 * overlap. {@link #commit()} is called after every write has returned; {@link #abort()} may be called
 * from another thread while a write is blocked (cancellation), and must make that write fail promptly.
 *
 * <h2>Buffers</h2>
 * The caller owns {@code source}: the writer consumes it from position to limit before returning and
 * must not keep a reference to it afterwards. Writes are blocking calls on engine threads.
 */
public interface SinkWriter {
    /** Writes all remaining bytes of {@code source} at {@code position}. */
    void write(long position, ByteBuffer source);

    /**
     * Makes the file visible under its final name, with the size written, the source's modification
     * time, and the attributes the sink supports. Returns the committed entry as the sink now lists it.
     *
     * @throws MoverException if it cannot; the file is then not visible, and the caller aborts
     */
    Entry commit();

    /** Discards everything written; nothing is visible under the final name. Idempotent. */
    void abort();
}
