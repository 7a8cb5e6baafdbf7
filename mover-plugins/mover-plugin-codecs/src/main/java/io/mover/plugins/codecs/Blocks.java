package io.mover.plugins.codecs;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

import io.mover.spi.BlockHeader;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

/** Argument checks and buffer views shared by the codecs of this plugin. */
final class Blocks {
    private Blocks() {}

    /** Refuses blocks no peer may send, and output buffers smaller than the contract promises. */
    static void checkCompress(String codec, int inputLength, int maxCompressedLength, ByteBuffer output) {
        if (inputLength > BlockHeader.MAX_BLOCK_LENGTH) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT,
                    codec + ": block of " + inputLength + " bytes exceeds the block limit of " + BlockHeader.MAX_BLOCK_LENGTH);
        }
        if (output.isReadOnly() || output.remaining() < maxCompressedLength) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, codec + ": output has " + output.remaining() + " bytes left"
                    + (output.isReadOnly() ? " and is read-only" : "") + ", needs " + maxCompressedLength);
        }
    }

    /**
     * Checks a block's claimed raw length before any byte is decoded: a hostile peer announcing a huge
     * length must not make us allocate or write past the caller's buffer.
     */
    static void checkDecompress(String codec, int rawLength, ByteBuffer output) {
        if (rawLength < 0 || rawLength > BlockHeader.MAX_BLOCK_LENGTH) {
            throw new MoverException(ErrorCode.CHECKSUM_MISMATCH,
                    codec + ": block claims " + rawLength + " raw bytes, outside 0 to " + BlockHeader.MAX_BLOCK_LENGTH);
        }
        if (output.isReadOnly() || output.remaining() < rawLength) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, codec + ": output has " + output.remaining() + " bytes left"
                    + (output.isReadOnly() ? " and is read-only" : "") + ", the block needs " + rawLength);
        }
    }

    /**
     * The remaining bytes of {@code buffer} as a segment. aircompressor's Java implementations read heap
     * segments through their backing array, which a read-only buffer does not expose, so those are copied.
     */
    static MemorySegment readable(ByteBuffer buffer) {
        if (buffer.isReadOnly() && !buffer.isDirect()) {
            byte[] copy = new byte[buffer.remaining()];
            buffer.duplicate().get(copy);
            return MemorySegment.ofArray(copy);
        }
        return MemorySegment.ofBuffer(buffer);
    }

    /** The first {@code length} remaining bytes of {@code buffer} as a writable segment. */
    static MemorySegment writable(ByteBuffer buffer, int length) {
        return MemorySegment.ofBuffer(buffer.slice(buffer.position(), length));
    }

    static MoverException corrupt(String codec, int rawLength, Throwable cause) {
        String reason = cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
        return new MoverException(ErrorCode.CHECKSUM_MISMATCH, codec + ": corrupt block (" + rawLength + " raw bytes expected): " + reason, cause);
    }

    static MoverException wrongLength(String codec, int rawLength, long written) {
        return new MoverException(ErrorCode.CHECKSUM_MISMATCH, codec + ": corrupt block: decoded " + written + " bytes, expected " + rawLength);
    }
}
