package io.mover.plugins.tcp.tar;

import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.Optional;
import java.util.zip.GZIPInputStream;

import io.airlift.compress.v3.lz4.Lz4FrameCompressor;
import io.airlift.compress.v3.zstd.ZstdCompressor;
import io.airlift.compress.v3.zstd.ZstdInputStream;

import static java.util.Objects.requireNonNull;

/**
 * The bytes on a plain connection: a tar stream, compressed as a whole the way the {@code zstd}, {@code lz4}
 * and {@code gzip} tools do it, so that {@code nc -l PORT | zstd -d | tar x} reads what mover sends and
 * {@code tar c DIR | zstd | nc HOST PORT} is what mover receives. Written {@code tar}, {@code tar+zstd[:level]},
 * {@code tar+lz4} or {@code tar+gzip[:level]}.
 *
 * @param level the compressor's level (0 for {@code tar} and {@code tar+lz4}, which have none)
 */
record TarFormat(Compression compression, int level) {
    /** The name of the default format of a {@code tcp://} connection: the mover peer protocol. */
    static final String MOVER = "mover";
    static final String SYNTAX = "mover, tar, tar+zstd[:1-19], tar+lz4 or tar+gzip[:1-9]";

    TarFormat {
        requireNonNull(compression, "compression is null");
    }

    /** The format {@code text} names; empty for {@value #MOVER}. */
    static Optional<TarFormat> parse(String text) {
        String name = text.strip().toLowerCase(Locale.ROOT);
        if (name.equals(MOVER)) {
            return Optional.empty();
        }
        int colon = name.indexOf(':');
        String base = colon < 0 ? name : name.substring(0, colon);
        for (Compression compression : Compression.values()) {
            if (compression.formatName.equals(base)) {
                return Optional.of(new TarFormat(compression, colon < 0 ? compression.defaultLevel : compression.level(name.substring(colon + 1))));
            }
        }
        throw new IllegalArgumentException("unknown format '" + text + "': use " + SYNTAX);
    }

    static boolean isValid(Object text) {
        try {
            parse((String) text);
            return true;
        }
        catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** As it is written on a command line: {@code tar+zstd}, {@code tar+zstd:9} (the level when it is not the default). */
    @Override
    public String toString() {
        return compression.formatName + (level != compression.defaultLevel ? ":" + level : "");
    }

    /**
     * A tar stream's compression. Each one writes what its tool reads: a sequence of independent frames
     * (gzip members), which the tools decompress as one stream, so the sender can compress chunks on several
     * cores (as pigz and {@code zstd -T} do); and each reads what its tool writes, in one frame or many.
     */
    enum Compression {
        NONE("tar", 0, 0, 0, new byte[0], "tar"),
        ZSTD("tar+zstd", 1, 19, 3, new byte[] {0x28, (byte) 0xB5, 0x2F, (byte) 0xFD}, "zstd"),
        LZ4("tar+lz4", 0, 0, 0, new byte[] {0x04, 0x22, 0x4D, 0x18}, "lz4"),
        GZIP("tar+gzip", 1, 9, 6, new byte[] {0x1F, (byte) 0x8B}, "gzip");

        private final String formatName;
        private final int minLevel;
        private final int maxLevel;
        private final int defaultLevel;
        private final byte[] magic;
        private final String tool;

        Compression(String formatName, int minLevel, int maxLevel, int defaultLevel, byte[] magic, String tool) {
            this.formatName = formatName;
            this.minLevel = minLevel;
            this.maxLevel = maxLevel;
            this.defaultLevel = defaultLevel;
            this.magic = magic;
            this.tool = tool;
        }

        String formatName() {
            return formatName;
        }

        /** The pipeline that unpacks this format from stdin: {@code zstd -d | tar x}. */
        String receivingPipe() {
            return this == NONE ? "tar x" : tool + " -d | tar x";
        }

        /** What the bytes look like to someone who knows the tools: {@code a zstd stream}. */
        String description() {
            return this == NONE ? "a plain tar stream" : "a " + tool + " stream";
        }

        private int level(String text) {
            if (maxLevel == 0) {
                throw new IllegalArgumentException(formatName + " takes no level");
            }
            try {
                int level = Integer.parseInt(text);
                if (level >= minLevel && level <= maxLevel) {
                    return level;
                }
            }
            catch (NumberFormatException e) {
                // reported below
            }
            throw new IllegalArgumentException(formatName + " level must be " + minLevel + " to " + maxLevel + ", got '" + text + "'");
        }

        /** Whether {@code head} (the first bytes of a stream) starts like this compression's output. */
        boolean matches(byte[] head, int length) {
            if (magic.length == 0 || length < magic.length) {
                return false;
            }
            for (int i = 0; i < magic.length; i++) {
                if (head[i] != magic[i]) {
                    return false;
                }
            }
            return true;
        }

        /** A compressor of one chunk into one self-contained frame; one per thread. */
        FrameCompressor newCompressor(int level) {
            return switch (this) {
                case NONE -> FrameCompressor.STORED;
                case ZSTD -> FrameCompressor.of(ZstdCompressor.create(level));
                case LZ4 -> FrameCompressor.of(Lz4FrameCompressor.create());
                case GZIP -> FrameCompressor.gzip(level);
            };
        }

        /** The decompressed stream of {@code in}: every frame (member) in turn until the end. */
        InputStream decompressing(InputStream in) throws IOException {
            return switch (this) {
                case NONE -> in;
                case ZSTD -> new ZstdInputStream(in);
                case LZ4 -> new Lz4FrameInputStream(in);
                case GZIP -> new GZIPInputStream(in, 64 * 1024);
            };
        }
    }
}
