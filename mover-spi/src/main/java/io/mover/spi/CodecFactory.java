package io.mover.spi;

/**
 * Creates {@link Codec}s of one family. Thread-safe.
 *
 * <p>Wire ids are part of the block format and of the peer protocol, so they are fixed: 0 is reserved
 * for raw (uncompressed) blocks, 1 to 63 are mover's own codecs ({@code lz4}=1, {@code snappy}=2,
 * {@code lzo}=3, {@code zstd}=4, {@code gzip}=5, {@code deflate}=6), 64 to 127 are free for third-party
 * codecs.
 */
public interface CodecFactory {
    String name();

    byte wireId();

    /** One line for {@code mover plugins}. */
    default String description() {
        return name();
    }

    /** Whether {@link #create} takes a level ({@code zstd:3}); the range and default are then given. */
    default boolean hasLevels() {
        return false;
    }

    default int minLevel() {
        return 0;
    }

    default int maxLevel() {
        return 0;
    }

    default int defaultLevel() {
        return 0;
    }

    /** Whether this codec runs native code here (faster) or its pure-Java fallback. */
    default String implementation() {
        return "java";
    }

    /**
     * Creates a codec at {@code level} (ignored by codecs without levels).
     *
     * @throws MoverException {@link ErrorCode#INVALID_ARGUMENT} for a level out of range
     */
    Codec create(int level);
}
