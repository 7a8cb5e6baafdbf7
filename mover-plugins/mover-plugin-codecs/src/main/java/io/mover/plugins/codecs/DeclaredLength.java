package io.mover.plugins.codecs;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

/**
 * Snappy blocks and zstd frames state their decoded length up front. Checking it against the length the
 * block header promised refuses a lying block before the decoder runs, with a clear message; and the
 * pure-Java zstd decoder, given a window shorter than the frame, stops at the window's end without an
 * error, which only this check catches.
 */
final class DeclaredLength {
    private static final int MAX_VARINT_BYTES = 5;
    private static final int ZSTD_MAGIC = 0xFD2FB528;

    private DeclaredLength() {}

    /** A snappy block starts with its raw length as a little-endian base-128 varint. */
    static void checkSnappy(ByteBuffer input, int rawLength) {
        long declared = 0;
        int position = input.position();
        for (int i = 0; i < MAX_VARINT_BYTES; i++) {
            if (position + i >= input.limit()) {
                throw corrupt("snappy", "truncated length preamble");
            }
            int b = input.get(position + i) & 0xff;
            declared |= (long) (b & 0x7f) << (7 * i);
            if ((b & 0x80) == 0) {
                checkEqual("snappy", declared, rawLength);
                return;
            }
        }
        throw corrupt("snappy", "length preamble longer than 5 bytes");
    }

    /**
     * A zstd frame header (RFC 8878, 3.1.1.1): magic, frame header descriptor, optional window
     * descriptor and dictionary id, then the frame content size in 0, 1, 2, 4 or 8 bytes. A frame
     * without a content size is left to the decoder.
     */
    static void checkZstd(ByteBuffer input, int rawLength) {
        ByteBuffer in = input.slice().order(ByteOrder.LITTLE_ENDIAN);
        if (in.remaining() < 5 || in.getInt(0) != ZSTD_MAGIC) {
            throw corrupt("zstd", "not a zstd frame");
        }
        int descriptor = in.get(4) & 0xff;
        int contentSizeFlag = descriptor >>> 6;
        boolean singleSegment = (descriptor & 0x20) != 0;
        int position = 5 + (singleSegment ? 0 : 1) + switch (descriptor & 0x03) {
            case 0 -> 0;
            case 1 -> 1;
            case 2 -> 2;
            default -> 4;
        };
        int sizeBytes = switch (contentSizeFlag) {
            case 0 -> singleSegment ? 1 : 0;
            case 1 -> 2;
            case 2 -> 4;
            default -> 8;
        };
        if (position + sizeBytes > in.limit()) {
            throw corrupt("zstd", "truncated frame header");
        }
        long declared = switch (sizeBytes) {
            case 0 -> -1;
            case 1 -> in.get(position) & 0xffL;
            case 2 -> (in.getShort(position) & 0xffffL) + 256;
            case 4 -> in.getInt(position) & 0xffffffffL;
            default -> in.getLong(position);
        };
        if (declared >= 0 || sizeBytes == 8) {
            checkEqual("zstd", declared, rawLength);
        }
    }

    private static void checkEqual(String codec, long declared, int rawLength) {
        if (declared != rawLength) {
            throw corrupt(codec, "it declares " + Long.toUnsignedString(declared) + " raw bytes, expected " + rawLength);
        }
    }

    private static MoverException corrupt(String codec, String reason) {
        return new MoverException(ErrorCode.CHECKSUM_MISMATCH, codec + ": corrupt block: " + reason);
    }
}
