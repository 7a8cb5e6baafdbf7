package io.mover.spi;

/**
 * An optional ability of a {@link Sink}: create symbolic links, for {@code --preserve-symlinks}.
 */
public interface SymbolicLinks {
    /**
     * Creates (or replaces) a symbolic link at {@code path} pointing to {@code target}, exactly as the
     * source's link did. The target is stored as text and never followed by the sink.
     */
    void createSymbolicLink(RelativePath path, String target);
}
