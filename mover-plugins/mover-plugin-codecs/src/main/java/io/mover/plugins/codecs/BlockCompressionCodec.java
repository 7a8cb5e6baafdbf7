package io.mover.plugins.codecs;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

import io.airlift.compress.v3.Compressor;
import io.airlift.compress.v3.Decompressor;
import io.mover.spi.Codec;
import io.mover.spi.MoverException;

import static java.util.Objects.requireNonNull;

/**
 * A {@link Codec} over one aircompressor compressor and decompressor pair, native or pure Java.
 * Not thread-safe: one instance per thread, as the SPI says.
 */
final class BlockCompressionCodec implements Codec {
    private final CodecFamily family;
    private final Compressor compressor;
    private final Decompressor decompressor;

    BlockCompressionCodec(CodecFamily family, Compressor compressor, Decompressor decompressor) {
        this.family = requireNonNull(family, "family is null");
        this.compressor = requireNonNull(compressor, "compressor is null");
        this.decompressor = requireNonNull(decompressor, "decompressor is null");
    }

    @Override
    public String name() {
        return family.codecName();
    }

    @Override
    public byte wireId() {
        return family.wireId();
    }

    @Override
    public int maxCompressedLength(int inputLength) {
        return compressor.maxCompressedLength(inputLength);
    }

    @Override
    public int compress(ByteBuffer input, ByteBuffer output) {
        int inputLength = input.remaining();
        int maxLength = maxCompressedLength(inputLength);
        Blocks.checkCompress(name(), inputLength, maxLength, output);
        int written = compressor.compress(Blocks.readable(input), Blocks.writable(output, maxLength));
        input.position(input.limit());
        output.position(output.position() + written);
        return written;
    }

    @Override
    public int decompress(ByteBuffer input, ByteBuffer output, int rawLength) {
        Blocks.checkDecompress(name(), rawLength, output);
        if (family == CodecFamily.SNAPPY) {
            DeclaredLength.checkSnappy(input, rawLength);
        }
        if (family == CodecFamily.ZSTD) {
            DeclaredLength.checkZstd(input, rawLength);
        }
        // the decoder sees exactly rawLength bytes of output: whatever the input says, it cannot write past them
        MemorySegment target = Blocks.writable(output, rawLength);
        int written;
        try {
            written = decompressor.decompress(Blocks.readable(input), target);
        }
        catch (MoverException e) {
            throw e;
        }
        catch (RuntimeException e) {
            // MalformedInputException, and the bounds errors hostile bytes provoke in the Java decoders
            throw Blocks.corrupt(name(), rawLength, e);
        }
        if (written != rawLength) {
            throw Blocks.wrongLength(name(), rawLength, written);
        }
        input.position(input.limit());
        output.position(output.position() + written);
        return written;
    }
}
