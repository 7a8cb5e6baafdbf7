package io.mover.plugins.local;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.stream.Stream;

import io.mover.spi.EndpointInfo;
import io.mover.spi.Entry;
import io.mover.spi.EntryType;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.RelativePath;
import io.mover.spi.Source;
import io.mover.spi.SourceReader;

import static java.util.Objects.requireNonNull;

/** Reads a local tree. Thread-safe: it holds no state beyond its root. */
final class LocalSource implements Source {
    private final Path root;
    private final boolean followSymlinks;
    /** See {@link #onLocalDisk()}; asked once, at the first local-to-local copy. */
    private volatile Boolean onLocalDisk;

    LocalSource(Path root, boolean followSymlinks) {
        this.root = requireNonNull(root, "root is null");
        this.followSymlinks = followSymlinks;
    }

    @Override
    public EndpointInfo info() {
        return LocalFiles.INFO;
    }

    @Override
    public Optional<Entry> stat(RelativePath path) {
        Path file = LocalFiles.resolve(root, path);
        try {
            // the root is always followed: a user naming a link as the source means what it points to
            return LocalFiles.entry(file, path, followSymlinks || path.isRoot());
        }
        catch (IOException e) {
            throw IoErrors.map(e, "read the attributes of", file);
        }
    }

    @Override
    public Stream<Entry> list(RelativePath directory) {
        Path dir = LocalFiles.resolve(root, directory);
        Stream<Entry> entries;
        try {
            // opened first, asked why only when that fails: a stat of the folder before each listing was one more
            // path walked per folder, 1,000 of a no-change sync's calls (the opening follows links, as isDirectory did)
            entries = LocalFiles.list(dir, directory, followSymlinks, name -> true, onLocalDisk());
        }
        catch (IOException e) {
            throw notListed(dir, e);
        }
        return followSymlinks ? entries.map(entry -> unlessLoop(dir, entry)) : entries;
    }

    private static MoverException notListed(Path dir, IOException e) {
        if (!Files.isDirectory(dir)) {
            if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
                return new MoverException(ErrorCode.NOT_A_DIRECTORY, "cannot list " + dir + ": not a directory");
            }
            return new MoverException(ErrorCode.NOT_FOUND, "cannot list " + dir + ": no such directory");
        }
        return IoErrors.map(e, "list", dir);
    }

    /** A followed link that leads to one of its own ancestors is reported as the link it is, so the crawl ends. */
    private Entry unlessLoop(Path dir, Entry entry) {
        if (entry.type() != EntryType.DIRECTORY) {
            return entry;
        }
        Path file = dir.resolve(entry.path().name());
        if (!Files.isSymbolicLink(file)) {
            return entry;
        }
        try {
            Path target = file.toRealPath();
            if (dir.toRealPath().startsWith(target)) {
                return new Entry(entry.path(), EntryType.SYMLINK, 0, entry.lastModified(),
                        entry.attributes().withSymlinkTarget(Files.readSymbolicLink(file).toString()));
            }
            return entry;
        }
        catch (IOException e) {
            throw IoErrors.map(e, "resolve the link", file);
        }
    }

    @Override
    public SourceReader open(RelativePath path) {
        Path file = LocalFiles.resolve(root, path);
        try {
            return new Reader(openChannel(path));
        }
        catch (IOException e) {
            throw IoErrors.map(e, "open", file);
        }
    }

    /** The file at {@code path}, open for reading; for {@link LocalSink}'s in-kernel copy. */
    FileChannel openChannel(RelativePath path) throws IOException {
        return FileChannel.open(LocalFiles.resolve(root, path), StandardOpenOption.READ);
    }

    /** Whether this tree is on a local disk ({@link LocalFiles#onLocalDisk}), for the sink's raw-descriptor copy. */
    boolean onLocalDisk() {
        Boolean local = onLocalDisk;
        if (local == null) {
            local = LocalFiles.onLocalDisk(root);
            onLocalDisk = local;
        }
        return local;
    }

    /** Where {@code path} lives, for messages. */
    Path file(RelativePath path) {
        return LocalFiles.resolve(root, path);
    }

    @Override
    public void close() {}

    private record Reader(FileChannel channel) implements SourceReader {
        @Override
        public long size() {
            try {
                return channel.size();
            }
            catch (IOException e) {
                throw new MoverException(ErrorCode.IO_ERROR, "cannot read the size of an open file: " + e.getMessage(), e);
            }
        }

        @Override
        public int read(long position, ByteBuffer destination) {
            int total = 0;
            try {
                while (destination.hasRemaining()) {
                    int n = channel.read(destination, position + total);
                    if (n < 0) {
                        break;
                    }
                    total += n;
                }
                return total;
            }
            catch (IOException e) {
                throw new MoverException(ErrorCode.IO_ERROR, "read failed at offset " + position + ": " + e.getMessage(), e);
            }
        }

        @Override
        public void close() {
            try {
                channel.close();
            }
            catch (IOException e) {
                throw new MoverException(ErrorCode.IO_ERROR, "close failed: " + e.getMessage(), e);
            }
        }
    }
}
