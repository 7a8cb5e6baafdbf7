package io.mover.plugins.codecs;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32;

import io.airlift.compress.v3.Compressor;
import io.airlift.compress.v3.Decompressor;
import io.mover.spi.Codec;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

import static java.util.Objects.requireNonNull;

/**
 * Each block is one gzip member (RFC 1952): a 10-byte header, a raw deflate stream from the same
 * (native where possible) deflate compressor as {@code deflate}, and a CRC-32 + length trailer. So a
 * block is readable by {@code gzip -d}, and blocks concatenated form a valid multi-member gzip file.
 * Not thread-safe: one instance per thread.
 */
final class GzipCodec implements Codec {
    private static final int HEADER_LENGTH = 10;
    private static final int TRAILER_LENGTH = 8;
    private static final int FHCRC = 0x02;
    private static final int FEXTRA = 0x04;
    private static final int FNAME = 0x08;
    private static final int FCOMMENT = 0x10;
    private static final int RESERVED_FLAGS = 0xe0;
    private static final byte OS_UNKNOWN = (byte) 0xff;

    private final Compressor compressor;
    private final Decompressor decompressor;
    private final CRC32 crc = new CRC32();

    GzipCodec(Compressor compressor, Decompressor decompressor) {
        this.compressor = requireNonNull(compressor, "compressor is null");
        this.decompressor = requireNonNull(decompressor, "decompressor is null");
    }

    @Override
    public String name() {
        return CodecFamily.GZIP.codecName();
    }

    @Override
    public byte wireId() {
        return CodecFamily.GZIP.wireId();
    }

    @Override
    public int maxCompressedLength(int inputLength) {
        return HEADER_LENGTH + compressor.maxCompressedLength(inputLength) + TRAILER_LENGTH;
    }

    @Override
    public int compress(ByteBuffer input, ByteBuffer output) {
        int inputLength = input.remaining();
        int maxLength = maxCompressedLength(inputLength);
        Blocks.checkCompress(name(), inputLength, maxLength, output);
        ByteBuffer out = output.slice(output.position(), maxLength).order(ByteOrder.LITTLE_ENDIAN);
        // magic, CM=deflate, no flags, mtime 0 (blocks are not files), XFL 0, OS unknown
        out.put((byte) 0x1f).put((byte) 0x8b).put((byte) 8).put((byte) 0).putInt(0).put((byte) 0).put(OS_UNKNOWN);
        int deflated = compressor.compress(Blocks.readable(input), Blocks.writable(out, maxLength - HEADER_LENGTH - TRAILER_LENGTH));
        out.position(HEADER_LENGTH + deflated);
        out.putInt((int) crc32(input)).putInt(inputLength);
        int written = out.position();
        input.position(input.limit());
        output.position(output.position() + written);
        return written;
    }

    @Override
    public int decompress(ByteBuffer input, ByteBuffer output, int rawLength) {
        Blocks.checkDecompress(name(), rawLength, output);
        ByteBuffer in = input.slice().order(ByteOrder.LITTLE_ENDIAN);
        int payloadStart = skipHeader(in);
        int trailerStart = in.limit() - TRAILER_LENGTH;
        int expectedCrc = in.getInt(trailerStart);
        int declaredLength = in.getInt(trailerStart + 4);
        if (declaredLength != rawLength) {
            throw new MoverException(ErrorCode.CHECKSUM_MISMATCH,
                    "gzip: corrupt block: trailer declares " + Integer.toUnsignedString(declaredLength) + " raw bytes, expected " + rawLength);
        }
        ByteBuffer deflated = in.slice(payloadStart, trailerStart - payloadStart);
        int written;
        try {
            written = decompressor.decompress(Blocks.readable(deflated), Blocks.writable(output, rawLength));
        }
        catch (RuntimeException e) {
            throw Blocks.corrupt(name(), rawLength, e);
        }
        if (written != rawLength) {
            throw Blocks.wrongLength(name(), rawLength, written);
        }
        int actualCrc = (int) crc32(output.slice(output.position(), written));
        if (actualCrc != expectedCrc) {
            throw new MoverException(ErrorCode.CHECKSUM_MISMATCH,
                    String.format("gzip: corrupt block: CRC-32 %08x, trailer says %08x", actualCrc, expectedCrc));
        }
        input.position(input.limit());
        output.position(output.position() + written);
        return written;
    }

    /** Parses the member header (any optional fields a foreign gzip wrote) and returns where the deflate stream starts. */
    private static int skipHeader(ByteBuffer in) {
        int end = in.limit() - TRAILER_LENGTH;
        if (end < HEADER_LENGTH) {
            throw new MoverException(ErrorCode.CHECKSUM_MISMATCH, "gzip: corrupt block: " + in.limit() + " bytes is shorter than header and trailer");
        }
        if (in.get(0) != (byte) 0x1f || in.get(1) != (byte) 0x8b || in.get(2) != 8) {
            throw new MoverException(ErrorCode.CHECKSUM_MISMATCH, "gzip: corrupt block: not a gzip deflate member");
        }
        int flags = in.get(3) & 0xff;
        if ((flags & RESERVED_FLAGS) != 0) {
            throw new MoverException(ErrorCode.CHECKSUM_MISMATCH, "gzip: corrupt block: reserved header flags set");
        }
        int position = HEADER_LENGTH;
        if ((flags & FEXTRA) != 0) {
            position = within(position + 2, end);
            position = within(position + (in.getShort(position - 2) & 0xffff), end);
        }
        if ((flags & FNAME) != 0) {
            position = skipZeroTerminated(in, position, end);
        }
        if ((flags & FCOMMENT) != 0) {
            position = skipZeroTerminated(in, position, end);
        }
        if ((flags & FHCRC) != 0) {
            position = within(position + 2, end);
        }
        return position;
    }

    private static int skipZeroTerminated(ByteBuffer in, int position, int end) {
        for (int i = position; i < end; i++) {
            if (in.get(i) == 0) {
                return i + 1;
            }
        }
        throw new MoverException(ErrorCode.CHECKSUM_MISMATCH, "gzip: corrupt block: unterminated header field");
    }

    private static int within(int position, int end) {
        if (position > end) {
            throw new MoverException(ErrorCode.CHECKSUM_MISMATCH, "gzip: corrupt block: header runs past the payload");
        }
        return position;
    }

    private long crc32(ByteBuffer bytes) {
        crc.reset();
        crc.update(bytes.duplicate());
        return crc.getValue();
    }
}
