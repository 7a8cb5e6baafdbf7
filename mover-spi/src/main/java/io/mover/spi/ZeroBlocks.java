package io.mover.spi;

import java.nio.ByteBuffer;

/**
 * Blocks of zeros ({@link BlockHeader#ZEROS}): a block whose raw bytes are all zero crosses a link as a
 * header alone, its CRC32C field that of {@code rawLength} zero bytes, which both ends compute without
 * touching a byte (issue 5: the sender neither compresses nor checksums it, the receiver neither decodes
 * nor checks it). Thread-safe.
 *
 * @since 1.7
 */
public final class ZeroBlocks {
    /** CRC32C (Castagnoli), reflected: the register's feedback polynomial. */
    private static final int POLYNOMIAL = 0x82F63B78;
    /** The smallest shared buffer; it grows to the largest block asked for, up to {@link BlockHeader#MAX_BLOCK_LENGTH}. */
    private static final int MIN_SHARED = 64 << 10;
    /** Bytes {@link #isZero} compares at a time (at most {@link #MIN_SHARED}). */
    private static final int CHECK_SLICE = 16 << 10;

    /** Read-only, all zeros; replaced by a larger one when a longer block is asked for. */
    private static volatile ByteBuffer shared = ByteBuffer.allocateDirect(MIN_SHARED).asReadOnlyBuffer();
    /** {@code ZERO_BYTES[k]}: the CRC register's update by 2^k zero bytes, as 32 columns. */
    private static final int[][] ZERO_BYTES = zeroBytePowers();

    private ZeroBlocks() {}

    /**
     * Whether every remaining byte of {@code block} is zero; its position is left as it was. Vectorized
     * ({@link ByteBuffer#mismatch}): a block of data differs within its first bytes, so the check costs it
     * nothing, and a block of zeros is read once at memory speed.
     */
    public static boolean isZero(ByteBuffer block) {
        int position = block.position();
        int limit = block.limit();
        if (position == limit) {
            return true;
        }
        // the first and last bytes first: data rarely starts or ends with a zero byte, so most blocks stop here
        if (block.get(position) != 0 || block.get(limit - 1) != 0) {
            return false;
        }
        ByteBuffer zeros = shared;
        // in slices: the JDK's mismatch runs as a vector stub only once its callers are compiled, which takes a few
        // hundred calls; one call per 1 MiB block left a fifth of a GiB to its Java fallback in a sender (C1 only),
        // 130 ms of CPU (docs/benchmarks.md, the TCP peer, blocks of zeros)
        for (int at = position; at < limit; at += CHECK_SLICE) {
            int length = Math.min(CHECK_SLICE, limit - at);
            if (block.slice(at, length).mismatch(zeros.slice(0, length)) >= 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@code length} zero bytes, read-only, shared by every caller: a sink may write from it, never keep it.
     *
     * @throws MoverException {@link ErrorCode#CHECKSUM_MISMATCH} for a length outside 0 to {@link BlockHeader#MAX_BLOCK_LENGTH}
     */
    public static ByteBuffer zeros(int length) {
        checkLength(length);
        ByteBuffer buffer = shared;
        if (buffer.capacity() < length) {
            buffer = grow(length);
        }
        return buffer.slice(0, length);
    }

    private static synchronized ByteBuffer grow(int length) {
        ByteBuffer buffer = shared;
        if (buffer.capacity() < length) {
            // a power of two: a file's last, shorter block and the next file's blocks reuse it
            int capacity = Math.min(BlockHeader.MAX_BLOCK_LENGTH, Integer.highestOneBit(length - 1) << 1);
            buffer = ByteBuffer.allocateDirect(capacity).asReadOnlyBuffer();
            shared = buffer;
        }
        return buffer;
    }

    /**
     * The CRC32C of {@code length} zero bytes, from the length alone (the zlib {@code crc32_combine} method: the
     * register's update by one zero byte is a linear map over GF(2), so {@code length} of them is that map's power,
     * applied here as the product of the precomputed powers 2^k for the bits of {@code length}): at most 31 products
     * of a 32x32 bit matrix by a vector, about a microsecond, whatever the length (a hostile one included).
     *
     * @throws MoverException {@link ErrorCode#CHECKSUM_MISMATCH} for a length outside 0 to {@link BlockHeader#MAX_BLOCK_LENGTH}
     */
    public static int crc32c(int length) {
        checkLength(length);
        int register = 0xFFFFFFFF;
        for (int bit = 0; bit < 31; bit++) {
            if ((length & (1 << bit)) != 0) {
                register = times(ZERO_BYTES[bit], register);
            }
        }
        return ~register;
    }

    private static int[][] zeroBytePowers() {
        int[] step = new int[32];
        step[0] = POLYNOMIAL;   // one zero bit
        for (int n = 1; n < 32; n++) {
            step[n] = 1 << (n - 1);
        }
        for (int i = 0; i < 3; i++) {   // 2, 4, 8 zero bits: one zero byte
            step = square(step);
        }
        int[][] powers = new int[31][];
        for (int k = 0; k < powers.length; k++) {
            powers[k] = step;
            step = square(step);
        }
        return powers;
    }

    private static int times(int[] matrix, int vector) {
        int sum = 0;
        for (int i = 0, v = vector; v != 0; i++, v >>>= 1) {
            if ((v & 1) != 0) {
                sum ^= matrix[i];
            }
        }
        return sum;
    }

    private static int[] square(int[] matrix) {
        int[] square = new int[32];
        for (int n = 0; n < 32; n++) {
            square[n] = times(matrix, matrix[n]);
        }
        return square;
    }

    /**
     * Checks the header of a block of zeros: no payload, and its CRC32C that of its length in zeros, so a header
     * damaged in its length or its checksum is caught as any block's would be.
     *
     * @throws MoverException {@link ErrorCode#CHECKSUM_MISMATCH} when it is not
     */
    public static void check(BlockHeader header) {
        if (header.codecId() != BlockHeader.ZEROS || header.encodedLength() != 0) {
            throw new MoverException(ErrorCode.CHECKSUM_MISMATCH, "not a block of zeros: " + header);
        }
        int expected = crc32c(header.rawLength());
        if (header.crc32c() != expected) {
            throw new MoverException(ErrorCode.CHECKSUM_MISMATCH, String.format(
                    "block checksum mismatch (a block of %d zeros with CRC32C %08x; as many zeros have %08x)",
                    header.rawLength(), header.crc32c(), expected));
        }
    }

    private static void checkLength(int length) {
        if (length < 0 || length > BlockHeader.MAX_BLOCK_LENGTH) {
            throw new MoverException(ErrorCode.CHECKSUM_MISMATCH,
                    "a block of " + length + " zero bytes, outside 0 to " + BlockHeader.MAX_BLOCK_LENGTH);
        }
    }
}
