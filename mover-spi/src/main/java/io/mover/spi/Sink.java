package io.mover.spi;

import java.util.Optional;
import java.util.stream.Stream;

/**
 * Where bytes go: a tree the engine creates files and directories in.
 *
 * <h2>Lifecycle</h2>
 * <ol>
 * <li>{@link SinkFactory#create} returns it, ready to use.</li>
 * <li>The engine calls {@link #info()}, then any number of {@link #stat}, {@link #list} (for the
 *     compare), {@link #mkdirs}, {@link #create}, {@link #delete}, {@link #setAttributes} and
 *     {@link #removeStaleTemporaries}.</li>
 * <li>Every {@link SinkWriter} it created is committed or aborted.</li>
 * <li>{@link #finish()} once, when the job is ending without a fatal error or a cancel.</li>
 * <li>{@link #close()} once.</li>
 * </ol>
 *
 * <h2>Visibility</h2>
 * A file written through a {@link SinkWriter} is invisible under its final name until
 * {@link SinkWriter#commit()} returns; after {@link SinkWriter#abort()}, or a crash, nothing of it is
 * visible under that name, and its temporary (if any) is found and removed by
 * {@link #removeStaleTemporaries} in a later run of the same job. {@link #list} and {@link #stat}
 * never report temporaries.
 *
 * <h2>Threads</h2>
 * All methods but {@link #close()} may be called concurrently; calls may block (the engine calls them
 * on its own threads). The engine never writes two writers for one path at the same time.
 */
public interface Sink extends AutoCloseable {
    EndpointInfo info();

    /** The entry at {@code path}, or empty; never a temporary. */
    Optional<Entry> stat(RelativePath path);

    /** As {@link Source#list}: the entries directly inside {@code directory}, temporaries excluded. */
    Stream<Entry> list(RelativePath directory);

    /**
     * Creates {@code directory} and its missing parents.
     *
     * @return true if it was created now, false if it already existed; the engine relies on it: a directory
     *     reported as created now is not searched for stale temporaries ({@link #removeStaleTemporaries}), so
     *     a sink with temporaries that cannot tell must answer false
     * @throws MoverException {@link ErrorCode#NOT_A_DIRECTORY} if a file stands in the way
     */
    boolean mkdirs(RelativePath directory);

    /**
     * Starts writing the file {@code path} (its parent exists). Nothing is visible under {@code path}
     * until {@link SinkWriter#commit()}; an existing file there is replaced atomically at commit.
     *
     * @param size the final size, so the sink can preallocate or choose its strategy
     * @param entry the source entry: its modification time and the attributes the sink supports are
     *        applied at commit
     */
    SinkWriter create(RelativePath path, long size, Entry entry);

    /**
     * Removes a file, an empty directory, or (with {@code recursive}) a directory tree.
     * Deleting what does not exist is not an error.
     */
    void delete(RelativePath path, boolean recursive);

    /**
     * Applies modification time and attributes to an existing entry (the engine sets directory times
     * after their contents are written).
     */
    void setAttributes(RelativePath path, Entry entry);

    /**
     * Removes temporaries in {@code directory} left by an earlier, crashed or killed run of the same
     * job ({@link PluginContext#jobKey()}); never those of writers still open in this sink, nor those of
     * other jobs.
     *
     * @return how many were removed
     */
    default int removeStaleTemporaries(RelativePath directory) {
        return 0;
    }

    /**
     * The job's last file was committed and its folders' times were set, and it ends without a fatal
     * error or a cancel: a sink that holds bytes back for the whole tree (one stream, such as a tar
     * stream to a far end) sends them now, and throws if it cannot. Unlike a failure in {@link #close()},
     * which can only be logged, this one fails the job. Not called for a dry run. The default does nothing.
     *
     * @since 1.2
     */
    default void finish() {
    }

    @Override
    void close();
}
