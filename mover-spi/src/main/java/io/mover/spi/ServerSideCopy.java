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
     * <p>
     * Since 1.5: when the job is cancelled during the copy, the engine interrupts the calling thread. A copy
     * that can stop should then end soon, leave nothing visible at {@code target} and throw (preferably
     * {@link ErrorCode#CANCELLED}); the engine reports no failure for it. A copy that cannot stop may finish,
     * and the file then counts as copied. A copy that returns must not leave the interrupt to the engine's
     * next call: the engine clears it.
     */
    Optional<Entry> copyFrom(Source source, Entry entry, RelativePath target);
}
