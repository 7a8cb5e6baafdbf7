package io.mover.spi;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * A {@link SinkWriter} from {@link ResumableSink#resume}: it keeps a record of the blocks it wrote, so that
 * a later writer of the same key can keep them. Thread-safe as {@link SinkWriter}.
 *
 * @since 1.2
 */
public interface ResumableWriter extends SinkWriter {
    /**
     * The blocks an earlier writer of the key wrote that the temporary still holds, each checked against
     * its CRC32C when this writer was opened; empty for a fresh file. The caller need not write them again.
     * A writer that carries these to the engine answers {@link SinkWriter#holds} from them (the engine
     * still reads and checksums those blocks of the source, but neither encodes nor writes them).
     */
    List<Block> kept();

    /**
     * Writes like {@link #write(long, ByteBuffer)} and records the block (after the bytes were handed to the
     * file) with {@code crc32c}, the CRC32C of its bytes, so that a later writer of the key keeps it.
     */
    void write(long position, ByteBuffer source, int crc32c);

    /**
     * Writes {@code length} zero bytes at {@code position} and records the block as {@link #write(long, ByteBuffer,
     * int)} does, {@code crc32c} being {@link ZeroBlocks#crc32c} of the length: a block known to be zeros
     * ({@link BlockHeader#ZEROS}), which a writer may put in place without a buffer of them (as
     * {@link SinkWriter#writeZeros}). The default writes from the shared {@link ZeroBlocks#zeros}.
     *
     * @since 1.8
     */
    default void writeZeros(long position, int length, int crc32c) {
        write(position, ZeroBlocks.zeros(length), crc32c);
    }

    /**
     * Ends this writer and leaves the temporary and its record for a later {@link ResumableSink#resume} of
     * the same key (where {@link #abort()} removes them). Nothing becomes visible. Idempotent.
     */
    void suspend();

    /**
     * A block of the file.
     *
     * @param position its offset in the file
     * @param length its length in bytes
     * @param crc32c the CRC32C of its bytes
     */
    record Block(long position, int length, int crc32c) {
        public Block {
            if (position < 0 || length < 0) {
                throw new IllegalArgumentException("a block at " + position + " of " + length + " bytes");
            }
        }

        public long end() {
            return position + length;
        }
    }
}
