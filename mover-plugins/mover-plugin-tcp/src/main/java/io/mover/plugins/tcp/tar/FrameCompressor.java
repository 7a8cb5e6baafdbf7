package io.mover.plugins.tcp.tar;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.zip.GZIPOutputStream;

import io.airlift.compress.v3.Compressor;

/**
 * Compresses one chunk of a tar stream into one self-contained frame (a zstd or LZ4 frame, a gzip member).
 * Not thread-safe: one per thread.
 */
interface FrameCompressor {
    /** No compression: the chunk goes out as it is (plain {@code tar}). */
    FrameCompressor STORED = new FrameCompressor() {
        @Override
        public int maxCompressedLength(int length) {
            return length;
        }

        @Override
        public int compress(byte[] raw, int length, byte[] out) {
            System.arraycopy(raw, 0, out, 0, length);
            return length;
        }
    };

    int maxCompressedLength(int length);

    /** Compresses {@code raw[0, length)} into {@code out} (at least {@link #maxCompressedLength} long); returns the bytes written. */
    int compress(byte[] raw, int length, byte[] out);

    /** aircompressor's whole-frame compressors (native zstd and LZ4 when they load, Java otherwise). */
    static FrameCompressor of(Compressor compressor) {
        return new FrameCompressor() {
            @Override
            public int maxCompressedLength(int length) {
                return compressor.maxCompressedLength(length);
            }

            @Override
            public int compress(byte[] raw, int length, byte[] out) {
                return compressor.compress(raw, 0, length, out, 0, out.length);
            }
        };
    }

    /** One gzip member per chunk (RFC 1952 allows any number; gzip -d and tar z read them as one stream). */
    static FrameCompressor gzip(int level) {
        return new FrameCompressor() {
            @Override
            public int maxCompressedLength(int length) {
                // zlib's deflateBound for stored blocks, the gzip header and trailer, and margin
                return length + (length >> 12) + (length >> 14) + 64;
            }

            @Override
            public int compress(byte[] raw, int length, byte[] out) {
                ArrayOutput target = new ArrayOutput(out);
                try (GZIPOutputStream gzip = new LeveledGzip(target, level)) {
                    gzip.write(raw, 0, length);
                }
                catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                return target.length;
            }
        };
    }

    /** A GZIPOutputStream at {@code level} (the JDK's constructor takes none). */
    final class LeveledGzip extends GZIPOutputStream {
        LeveledGzip(OutputStream out, int level) throws IOException {
            super(out, 64 * 1024);
            def.setLevel(level);
        }
    }

    /** Writes into a caller's array; more than it holds is a bug in {@link #maxCompressedLength}. */
    final class ArrayOutput extends OutputStream {
        private final byte[] array;
        private int length;

        ArrayOutput(byte[] array) {
            this.array = array;
        }

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] bytes, int offset, int count) {
            if (length + count > array.length) {
                throw new IllegalStateException("compressed chunk exceeds its bound of " + array.length + " bytes");
            }
            System.arraycopy(bytes, offset, array, length, count);
            length += count;
        }
    }
}
