package io.mover.plugins.codecs;

import io.airlift.compress.v3.Compressor;
import io.airlift.compress.v3.Decompressor;
import io.airlift.compress.v3.deflate.DeflateJavaCompressor;
import io.airlift.compress.v3.deflate.DeflateJavaDecompressor;
import io.airlift.compress.v3.deflate.DeflateNativeCompressor;
import io.airlift.compress.v3.deflate.DeflateNativeDecompressor;
import io.airlift.compress.v3.lz4.Lz4JavaCompressor;
import io.airlift.compress.v3.lz4.Lz4JavaDecompressor;
import io.airlift.compress.v3.lz4.Lz4NativeCompressor;
import io.airlift.compress.v3.lz4.Lz4NativeDecompressor;
import io.airlift.compress.v3.lzo.LzoCompressor;
import io.airlift.compress.v3.lzo.LzoDecompressor;
import io.airlift.compress.v3.snappy.SnappyJavaCompressor;
import io.airlift.compress.v3.snappy.SnappyJavaDecompressor;
import io.airlift.compress.v3.snappy.SnappyNativeCompressor;
import io.airlift.compress.v3.snappy.SnappyNativeDecompressor;
import io.airlift.compress.v3.zstd.ZstdJavaCompressor;
import io.airlift.compress.v3.zstd.ZstdJavaDecompressor;
import io.airlift.compress.v3.zstd.ZstdNativeCompressor;
import io.airlift.compress.v3.zstd.ZstdNativeDecompressor;

/**
 * The codec families this plugin offers, with their fixed wire ids (see {@link io.mover.spi.CodecFactory})
 * and the aircompressor-v3 classes behind each. Native classes are only touched after
 * {@link #nativeAvailable()} said yes, so a platform without the bundled libraries falls back cleanly.
 */
enum CodecFamily {
    LZ4("lz4", 1, "LZ4 block format: the fastest, modest ratio", Levels.NONE),
    SNAPPY("snappy", 2, "Snappy block format: fast, modest ratio", Levels.NONE),
    LZO("lzo", 3, "LZO1X block format (pure Java)", Levels.NONE),
    ZSTD("zstd", 4, "Zstandard frame: good ratio at high speed", new Levels(1, 22, 3)),
    GZIP("gzip", 5, "gzip member (RFC 1952), readable by gzip -d", new Levels(1, 9, 6)),
    DEFLATE("deflate", 6, "raw deflate stream (RFC 1951)", new Levels(1, 9, 6));

    private final String codecName;
    private final byte wireId;
    private final String description;
    private final Levels levels;

    CodecFamily(String codecName, int wireId, String description, Levels levels) {
        this.codecName = codecName;
        this.wireId = (byte) wireId;
        this.description = description;
        this.levels = levels;
    }

    String codecName() {
        return codecName;
    }

    byte wireId() {
        return wireId;
    }

    String description() {
        return description;
    }

    Levels levels() {
        return levels;
    }

    /** Whether aircompressor loaded its bundled native library for this family on this platform. */
    boolean nativeAvailable() {
        return switch (this) {
            case LZ4 -> Lz4NativeCompressor.isEnabled() && Lz4NativeDecompressor.isEnabled();
            case SNAPPY -> SnappyNativeCompressor.isEnabled() && SnappyNativeDecompressor.isEnabled();
            case LZO -> false;
            case ZSTD -> ZstdNativeCompressor.isEnabled() && ZstdNativeDecompressor.isEnabled();
            // gzip is our own header and trailer around a deflate stream, so it shares libdeflate
            case GZIP, DEFLATE -> DeflateNativeCompressor.isEnabled() && DeflateNativeDecompressor.isEnabled();
        };
    }

    /**
     * A compressor at {@code level} (already range-checked; ignored by families without levels).
     * The pure-Java zstd has no levels: it always compresses at zstd's default, 3.
     */
    Compressor newCompressor(int level, boolean useNative) {
        return switch (this) {
            case LZ4 -> useNative ? new Lz4NativeCompressor() : new Lz4JavaCompressor();
            case SNAPPY -> useNative ? new SnappyNativeCompressor() : new SnappyJavaCompressor();
            case LZO -> new LzoCompressor();
            case ZSTD -> useNative ? new ZstdNativeCompressor(level) : new ZstdJavaCompressor();
            case GZIP, DEFLATE -> useNative ? new DeflateNativeCompressor(level) : new DeflateJavaCompressor(level);
        };
    }

    Decompressor newDecompressor(boolean useNative) {
        return switch (this) {
            case LZ4 -> useNative ? new Lz4NativeDecompressor() : new Lz4JavaDecompressor();
            case SNAPPY -> useNative ? new SnappyNativeDecompressor() : new SnappyJavaDecompressor();
            case LZO -> new LzoDecompressor();
            case ZSTD -> useNative ? new ZstdNativeDecompressor() : new ZstdJavaDecompressor();
            case GZIP, DEFLATE -> useNative ? new DeflateNativeDecompressor() : new DeflateJavaDecompressor();
        };
    }

    /** A family's level range; {@link #NONE} for families that take no level. */
    record Levels(int min, int max, int defaultLevel) {
        static final Levels NONE = new Levels(0, 0, 0);

        boolean present() {
            return max > 0;
        }
    }
}
