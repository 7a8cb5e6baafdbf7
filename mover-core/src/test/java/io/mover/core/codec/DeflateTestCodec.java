package io.mover.core.codec;

import java.nio.ByteBuffer;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

import io.mover.spi.Codec;
import io.mover.spi.CodecFactory;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

/** A real codec on the JDK's Deflater for core tests, which may not depend on the codecs plugin. */
public final class DeflateTestCodec implements Codec {
    public static final CodecFactory FACTORY = new CodecFactory() {
        @Override
        public String name() {
            return "test-deflate";
        }

        @Override
        public byte wireId() {
            return 100;
        }

        @Override
        public boolean hasLevels() {
            return true;
        }

        @Override
        public int minLevel() {
            return 1;
        }

        @Override
        public int maxLevel() {
            return 9;
        }

        @Override
        public int defaultLevel() {
            return 1;
        }

        @Override
        public Codec create(int level) {
            return new DeflateTestCodec(level);
        }
    };

    private final int level;

    DeflateTestCodec(int level) {
        this.level = level;
    }

    @Override
    public String name() {
        return "test-deflate";
    }

    @Override
    public byte wireId() {
        return 100;
    }

    @Override
    public int maxCompressedLength(int inputLength) {
        return inputLength + inputLength / 1000 + 64;
    }

    @Override
    public int compress(ByteBuffer input, ByteBuffer output) {
        Deflater deflater = new Deflater(level, true);
        try {
            deflater.setInput(input);
            deflater.finish();
            int start = output.position();
            while (!deflater.finished()) {
                if (deflater.deflate(output) == 0 && !output.hasRemaining()) {
                    throw new IllegalStateException("output too small");
                }
            }
            return output.position() - start;
        }
        finally {
            deflater.end();
        }
    }

    @Override
    public int decompress(ByteBuffer input, ByteBuffer output, int rawLength) {
        Inflater inflater = new Inflater(true);
        try {
            inflater.setInput(input);
            int start = output.position();
            while (!inflater.finished() && output.position() - start < rawLength) {
                if (inflater.inflate(output) == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    break;
                }
            }
            return output.position() - start;
        }
        catch (DataFormatException e) {
            throw new MoverException(ErrorCode.CHECKSUM_MISMATCH, "corrupt deflate block: " + e.getMessage());
        }
        finally {
            inflater.end();
        }
    }
}
