package io.mover.spi;

import java.util.Optional;

/**
 * An optional ability of a {@link Source} or {@link Sink}: give a file's content hash without the
 * engine reading the bytes (a stored MD5, a cached hash).
 */
public interface ContentHashes {
    /** The hash of {@code path} of {@code kind} (one of {@link EndpointInfo#hashKinds()}), or empty. */
    Optional<String> hash(RelativePath path, String kind);
}
