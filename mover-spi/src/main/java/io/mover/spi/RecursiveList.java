package io.mover.spi;

import java.util.stream.Stream;

/**
 * An optional ability of a {@link Source} or {@link Sink}: list a whole tree in one call, for
 * endpoints where that is cheaper than a call per directory (object stores, a catalog).
 */
public interface RecursiveList {
    /** Every entry below {@code directory}, at any depth, in any order; the caller closes the stream. */
    Stream<Entry> listRecursively(RelativePath directory);
}
