package io.mover.spi;

/**
 * An optional ability of a {@link Sink}: hard links, for archives that carry them (a tar stream's hard
 * link entries, received by {@code mover receive --format tar...}).
 *
 * @since 1.2
 */
public interface HardLinks {
    /**
     * Makes {@code path} (or replaces what is there) another name of the file at {@code existing}, both
     * under the sink's root, which confines both as it confines writes.
     *
     * @throws MoverException {@link ErrorCode#NOT_FOUND} when no file is at {@code existing}
     */
    void createHardLink(RelativePath path, RelativePath existing);
}
