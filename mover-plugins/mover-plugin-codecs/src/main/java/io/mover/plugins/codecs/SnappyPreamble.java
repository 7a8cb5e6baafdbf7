package io.mover.plugins.codecs;

import java.nio.ByteBuffer;

import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

/**
 * A snappy block starts with its uncompressed length as a varint. Checking it against the length the
 * block header promised refuses a lying block before the decoder runs, with a clear message.
 */
final class SnappyPreamble {
    private static final int MAX_VARINT_BYTES = 5;

    private SnappyPreamble() {}

    static void check(ByteBuffer input, int rawLength) {
        long declared = 0;
        int position = input.position();
        for (int i = 0; i < MAX_VARINT_BYTES; i++) {
            if (position + i >= input.limit()) {
                throw new MoverException(ErrorCode.CHECKSUM_MISMATCH, "snappy: corrupt block: truncated length preamble");
            }
            int b = input.get(position + i) & 0xff;
            declared |= (long) (b & 0x7f) << (7 * i);
            if ((b & 0x80) == 0) {
                if (declared != rawLength) {
                    throw new MoverException(ErrorCode.CHECKSUM_MISMATCH,
                            "snappy: corrupt block: it declares " + declared + " raw bytes, expected " + rawLength);
                }
                return;
            }
        }
        throw new MoverException(ErrorCode.CHECKSUM_MISMATCH, "snappy: corrupt block: length preamble longer than 5 bytes");
    }
}
