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
     * Writes {@code length} zero bytes at {@code position}: a block the engine or a link's far end knows to be
     * all zeros without a buffer of them ({@link BlockHeader#ZEROS}). Same rules as {@link #write}. The default
     * writes from the shared read-only {@link ZeroBlocks#zeros}; a writer that can leave a hole instead (a
     * sparse file) overrides it and skips checking the bytes.
     *
     * @since 1.7
     */
    default void writeZeros(long position, int length) {
        write(position, ZeroBlocks.zeros(length));
    }

    /**
     * Whether this writer already holds the block the caller is about to write: {@code length} bytes at
     * {@code position} whose CRC32C is {@code crc32c} (a partial an earlier run left, such as the blocks
     * a TCP peer's receiver reports on RESUME). The default holds nothing.
     *
     * <p><b>Contract.</b> The caller asks with the CRC32C of the bytes it would write (the engine: of the
     * source's bytes, read now), before writing that block and never after. {@code true} is a promise: the
     * writer treats the block as written (it is part of what {@link #commit()} makes visible) and the
     * caller neither encodes nor writes it. The writer answers {@code true} only for a block it holds at
     * exactly this position and length with this CRC32C. A caller retrying a range may ask again for the same
     * block and gets the same answer; a writer that counts what it kept counts each block once. {@code false}: the caller writes the block as usual ({@link #write} or
     * {@code writeEncoded}). Called on the threads and under the rules of {@link #write}, for every block,
     * so it must answer from memory: no I/O, no waiting.
     *
     * @since 1.3
     */
    default boolean holds(long position, int length, int crc32c) {
        return false;
    }

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
