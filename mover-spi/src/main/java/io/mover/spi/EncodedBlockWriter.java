package io.mover.spi;

import java.nio.ByteBuffer;

/**
 * An optional ability of a {@link SinkWriter} whose bytes cross a link (the TCP peer): it takes blocks
 * as the engine encoded them ({@link BlockHeader}: codec id, raw length, CRC32C), and the far end decodes
 * and checks them. The engine then skips its own DECODE and WRITE stages for this writer, and meters the
 * call as SEND.
 *
 * <p>Same threads and lifecycle as {@link SinkWriter#write}; {@link SinkWriter#commit()} returns only once
 * every block written is durably committed at the far end.
 *
 * <p><b>Buffers:</b> the caller owns {@code payload}; the writer consumes it from position to limit before
 * returning (copying what it keeps) and keeps no reference to it.
 *
 * @since 1.1
 */
public interface EncodedBlockWriter {
    /**
     * Sends the encoded block whose raw bytes go at {@code position}. May return before the far end has
     * written it (a bounded window of blocks is in flight); a failure of that write surfaces in a later
     * call or in {@link SinkWriter#commit()}.
     *
     * @throws MoverException {@link ErrorCode#CONNECTION_LOST} and other retryable codes when the link fails
     */
    void writeEncoded(long position, BlockHeader header, ByteBuffer payload);
}
