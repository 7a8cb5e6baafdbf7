package io.mover.spi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The header in front of every encoded block, so that any block can be checked and decoded alone:
 * which codec encoded it, how long it is before and after, and the CRC32C of the raw bytes.
 *
 * <pre>
 * offset size field
 *  0      1   magic 0xB7
 *  1      1   codec wire id (0 = raw, 0x7F = zeros)
 *  2      2   reserved, 0
 *  4      4   raw length (big-endian)
 *  8      4   encoded length (big-endian); equals raw length when the codec is raw
 * 12      4   CRC32C of the raw bytes (big-endian)
 * </pre>
 *
 * <p>A block of {@link #ZEROS} has no payload (encoded length 0): its raw bytes are {@code rawLength} zeros, and
 * its CRC32C is theirs ({@link ZeroBlocks#crc32c}), so a reader checks the header against the length alone.
 *
 * @param codecId the {@link CodecFactory#wireId()}, 0 for raw
 * @param rawLength bytes after decoding
 * @param encodedLength bytes of payload following the header
 * @param crc32c CRC32C of the raw bytes
 */
public record BlockHeader(byte codecId, int rawLength, int encodedLength, int crc32c) {
    public static final int LENGTH = 16;
    public static final byte MAGIC = (byte) 0xB7;
    public static final byte RAW = 0;
    /**
     * The codec id of a block of zeros: no payload, {@code rawLength} zero bytes. Offered in a link's codec
     * negotiation as a codec is ({@link LinkSink#decodableCodecs()}); no {@link CodecFactory} may use it.
     *
     * @since 1.7
     */
    public static final byte ZEROS = 0x7F;
    /** No block is ever larger than this, raw or encoded: a peer announcing more is refused. */
    public static final int MAX_BLOCK_LENGTH = 64 << 20;

    public BlockHeader {
        if (rawLength < 0 || rawLength > MAX_BLOCK_LENGTH || encodedLength < 0 || encodedLength > MAX_BLOCK_LENGTH) {
            throw new MoverException(ErrorCode.CHECKSUM_MISMATCH,
                    "block lengths out of range (raw " + rawLength + ", encoded " + encodedLength + ", limit " + MAX_BLOCK_LENGTH + ")");
        }
        if (codecId == RAW && rawLength != encodedLength) {
            throw new MoverException(ErrorCode.CHECKSUM_MISMATCH, "raw block with different raw and encoded lengths");
        }
        if (codecId == ZEROS && encodedLength != 0) {
            throw new MoverException(ErrorCode.CHECKSUM_MISMATCH, "a block of zeros with " + encodedLength + " bytes of payload");
        }
    }

    /** Writes the header at the buffer's position, advancing it by {@link #LENGTH}. */
    public void writeTo(ByteBuffer target) {
        ByteBuffer out = target.duplicate().order(ByteOrder.BIG_ENDIAN);
        out.put(MAGIC).put(codecId).putShort((short) 0).putInt(rawLength).putInt(encodedLength).putInt(crc32c);
        target.position(target.position() + LENGTH);
    }

    /**
     * Reads a header at the buffer's position, advancing it.
     *
     * @throws MoverException {@link ErrorCode#CHECKSUM_MISMATCH} for a bad magic or lengths out of range
     */
    public static BlockHeader readFrom(ByteBuffer source) {
        if (source.remaining() < LENGTH) {
            throw new MoverException(ErrorCode.CHECKSUM_MISMATCH, "truncated block header");
        }
        ByteBuffer in = source.duplicate().order(ByteOrder.BIG_ENDIAN);
        byte magic = in.get();
        if (magic != MAGIC) {
            throw new MoverException(ErrorCode.CHECKSUM_MISMATCH, String.format("not a mover block (magic 0x%02x)", magic & 0xff));
        }
        byte codec = in.get();
        in.getShort();
        BlockHeader header = new BlockHeader(codec, in.getInt(), in.getInt(), in.getInt());
        source.position(source.position() + LENGTH);
        return header;
    }
}
