package io.mover.spi;

import java.nio.ByteBuffer;

/**
 * Compresses and decompresses independent blocks. Each block is self-contained: it can be
 * decompressed alone, which lets the engine compress blocks on all cores and put them on several
 * streams.
 *
 * <p><b>Threads:</b> an instance is used by one thread at a time (it may keep scratch state); the
 * engine creates one per worker from the {@link CodecFactory}.
 *
 * <p><b>Buffers:</b> the caller owns both buffers. Input is read from its position to its limit and
 * its position advanced to the limit; output is written from its position, which is advanced by the
 * bytes written. The codec keeps no reference to either after the call. Heap and direct buffers must
 * both work.
 */
public interface Codec {
    /** The family name, as in {@code --codec} ({@code zstd}, {@code lz4}). */
    String name();

    /** The id written in block headers; see {@link CodecFactory#wireId()}. */
    byte wireId();

    /** The largest output {@link #compress} can produce for {@code inputLength} bytes. */
    int maxCompressedLength(int inputLength);

    /**
     * Compresses all remaining input into {@code output}, which has at least
     * {@link #maxCompressedLength} bytes remaining.
     *
     * @return bytes written
     */
    int compress(ByteBuffer input, ByteBuffer output);

    /**
     * Decompresses one block produced by {@link #compress} into {@code output}, which has at least
     * {@code rawLength} bytes remaining.
     *
     * @return bytes written, which equals {@code rawLength} for a valid block
     * @throws MoverException {@link ErrorCode#CHECKSUM_MISMATCH} if the block is corrupt
     */
    int decompress(ByteBuffer input, ByteBuffer output, int rawLength);
}
