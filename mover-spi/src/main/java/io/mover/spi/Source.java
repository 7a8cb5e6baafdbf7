package io.mover.spi;

import java.util.Optional;
import java.util.stream.Stream;

/**
 * Where bytes come from: a tree of entries, each file readable at any position.
 *
 * <h2>Lifecycle</h2>
 * <ol>
 * <li>{@link SourceFactory#create} returns it, ready to use (it may connect lazily).</li>
 * <li>The engine calls {@link #info()}, then any number of {@link #stat}, {@link #list} and {@link #open}.</li>
 * <li>{@link #close()} once, after every stream and reader it returned has been closed.</li>
 * </ol>
 *
 * <h2>Threads</h2>
 * {@link #stat}, {@link #list} and {@link #open} may be called concurrently from many threads
 * (the engine crawls directories and reads files in parallel); {@link #close()} is called once, by
 * one thread, after all other calls have returned. Calls may block: the engine calls them on its own
 * (virtual) threads, never on a network event loop.
 *
 * <h2>Errors</h2>
 * Every method throws {@link MoverException}; an I/O problem with one file is that file's failure, not
 * the job's, unless its category is {@link ErrorCategory#FATAL}.
 */
public interface Source extends AutoCloseable {
    /** Facts the engine plans with: mtime precision, hash kinds, case sensitivity. Cheap; called once. */
    EndpointInfo info();

    /**
     * The entry at {@code path}, or empty if there is none. {@link RelativePath#ROOT} is the
     * endpoint's root, which may be a directory or a single file.
     */
    Optional<Entry> stat(RelativePath path);

    /**
     * The entries directly inside {@code directory} (not recursive), each with its attributes, in any
     * order, complete. Symlinks are reported as {@link EntryType#SYMLINK}, not followed. The stream
     * is lazy where the endpoint allows (a directory of a million entries must not be read into memory),
     * and the caller closes it.
     *
     * @throws MoverException {@link ErrorCode#NOT_FOUND} if the directory does not exist,
     *         {@link ErrorCode#NOT_A_DIRECTORY} if it is a file
     */
    Stream<Entry> list(RelativePath directory);

    /** Opens a file for positional reads. The caller closes the reader. */
    SourceReader open(RelativePath path);

    /** Releases connections and handles. Idempotent. */
    @Override
    void close();
}
