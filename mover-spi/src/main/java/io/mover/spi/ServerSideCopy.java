package io.mover.spi;

import java.util.Optional;

/**
 * An optional ability of a {@link Sink}: copy a file from a source without the bytes passing through
 * mover (Azure Copy File, NFS server-side copy, {@code copy_file_range} between local files).
 */
public interface ServerSideCopy {
    /**
     * Copies {@code entry} from {@code source} to {@code target}, atomically visible like a committed
     * {@link SinkWriter}. Returns empty (not an exception) when this pair of endpoints cannot do it,
     * and the engine then streams the bytes itself.
     */
    Optional<Entry> copyFrom(Source source, Entry entry, RelativePath target);
}
