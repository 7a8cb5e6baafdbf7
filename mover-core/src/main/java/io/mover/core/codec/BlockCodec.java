package io.mover.core.codec;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

import io.mover.spi.BlockHeader;
import io.mover.spi.Codec;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.ZeroBlocks;

/**
 * Turns raw blocks into self-describing encoded blocks and back: CRC32C of the raw bytes always,
 * compression when a codec is chosen and it pays. One instance per thread (codecs keep scratch state).
 */
public final class BlockCodec {
    /** A block must shrink by at least this fraction to be sent compressed: incompressible data never pays twice. */
    static final double MIN_SAVING = 0.03;

    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0).asReadOnlyBuffer();

    private final Codec codec;
    /** Whether the far end takes {@link BlockHeader#ZEROS} blocks: then a block of zeros is neither compressed nor checksummed. */
    private final boolean zeroBlocks;

    /** @param codec the codec, or null for {@code none} (checksums only); blocks of zeros are sent as bytes */
    public BlockCodec(Codec codec) {
        this(codec, false);
    }

    /**
     * @param codec the codec, or null for {@code none} (checksums only)
     * @param zeroBlocks whether the decoding side takes blocks of zeros as a header alone ({@link BlockHeader#ZEROS})
     */
    public BlockCodec(Codec codec, boolean zeroBlocks) {
        this.codec = codec;
        this.zeroBlocks = zeroBlocks;
    }

    /**
     * Whether the remaining bytes of {@code raw} go as a block of zeros: the far end takes them and they are all
     * zero. Checked before anything else reads the block: it exits on the first non-zero byte, so data pays nothing,
     * and spares a block of zeros its CRC32C ({@link ZeroBlocks#crc32c} from the length) and its compression.
     */
    public boolean zeros(ByteBuffer raw) {
        return zeroBlocks && raw.hasRemaining() && ZeroBlocks.isZero(raw);
    }

    /** Bytes the encoded payload of a {@code blockSize} block may need, header excluded. */
    public static int encodedCapacity(Codec codec, int blockSize) {
        return codec == null ? 0 : Math.max(blockSize, codec.maxCompressedLength(blockSize));
    }

    /**
     * Encodes the remaining bytes of {@code raw}. The payload is {@code raw} itself (a raw block; its
     * position is unchanged) or {@code scratch}, flipped, holding the compressed bytes.
     */
    public EncodedBlock encode(ByteBuffer raw, ByteBuffer scratch) {
        boolean zeros = zeros(raw);
        return encode(raw, scratch, zeros ? ZeroBlocks.crc32c(raw.remaining()) : crc32c(raw), zeros);
    }

    /**
     * As {@link #encode(ByteBuffer, ByteBuffer)}, with {@code crc}, the CRC32C of the remaining bytes of {@code raw},
     * and {@code zeros}, what {@link #zeros} said of them, both found by the caller. A block of zeros has no payload.
     */
    public EncodedBlock encode(ByteBuffer raw, ByteBuffer scratch, int crc, boolean zeros) {
        int rawLength = raw.remaining();
        if (zeros) {
            if (codec instanceof AutoCodec auto) {
                // counted for the summary's codec line: an all-zeros job would otherwise read "none sent"
                auto.zeroBlock();
            }
            return new EncodedBlock(new BlockHeader(BlockHeader.ZEROS, rawLength, 0, crc), EMPTY);
        }
        if (codec != null && rawLength > 0) {
            scratch.clear();
            int encoded = codec.compress(raw.duplicate(), scratch);
            if (encoded <= rawLength * (1 - MIN_SAVING)) {
                scratch.flip();
                return new EncodedBlock(new BlockHeader(codec.wireId(), rawLength, encoded, crc), scratch);
            }
        }
        return new EncodedBlock(new BlockHeader(BlockHeader.RAW, rawLength, rawLength, crc), raw);
    }

    /**
     * Decodes {@code block} into {@code target} (cleared first, flipped after) and checks its CRC32C.
     * {@code target} may be the buffer the raw bytes came from. A block of zeros is not copied: what comes back is
     * the shared read-only {@link ZeroBlocks#zeros} (its header checked against its length).
     *
     * @throws MoverException {@link ErrorCode#CHECKSUM_MISMATCH} when the bytes are not what was encoded
     */
    public ByteBuffer decode(EncodedBlock block, ByteBuffer target) {
        BlockHeader header = block.header();
        if (header.codecId() == BlockHeader.ZEROS) {
            ZeroBlocks.check(header);
            return ZeroBlocks.zeros(header.rawLength());
        }
        if (header.codecId() == BlockHeader.RAW) {
            if (block.payload().remaining() != header.rawLength()) {
                throw new MoverException(ErrorCode.CHECKSUM_MISMATCH, "raw block of " + block.payload().remaining() + " bytes, header says " + header.rawLength());
            }
            if (block.payload() == target) {
                // the block never left this buffer (in-process, raw): its bytes are the ones checksummed
                return target;
            }
            target.clear();
            target.put(block.payload().duplicate());
            target.flip();
        }
        else {
            if (codec == null || codec.wireId() != header.codecId()) {
                throw new MoverException(ErrorCode.CHECKSUM_MISMATCH, "block encoded with codec id " + header.codecId() + " but this side decodes "
                        + (codec == null ? "none" : codec.name()));
            }
            if (target.capacity() < header.rawLength()) {
                throw new MoverException(ErrorCode.CHECKSUM_MISMATCH, "block of " + header.rawLength() + " raw bytes exceeds the buffer of " + target.capacity());
            }
            target.clear();
            target.limit(header.rawLength());
            int written = codec.decompress(block.payload().duplicate(), target, header.rawLength());
            if (written != header.rawLength()) {
                throw new MoverException(ErrorCode.CHECKSUM_MISMATCH, "block decoded to " + written + " bytes, header says " + header.rawLength());
            }
            target.flip();
        }
        int crc = crc32c(target);
        if (crc != header.crc32c()) {
            throw new MoverException(ErrorCode.CHECKSUM_MISMATCH, String.format("block checksum mismatch (CRC32C %08x, expected %08x)", crc, header.crc32c()));
        }
        return target;
    }

    /** CRC32C of the remaining bytes, leaving the buffer's position unchanged. */
    public static int crc32c(ByteBuffer buffer) {
        CRC32C crc = new CRC32C();
        crc.update(buffer.duplicate());
        return (int) crc.getValue();
    }

    /** A block ready to cross a link: its header and its payload (position to limit). */
    public record EncodedBlock(BlockHeader header, ByteBuffer payload) {}
}
