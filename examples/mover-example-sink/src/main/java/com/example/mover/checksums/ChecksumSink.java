package com.example.mover.checksums;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

import io.mover.spi.ContentHashes;
import io.mover.spi.EndpointInfo;
import io.mover.spi.Entry;
import io.mover.spi.EntryType;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.RelativePath;
import io.mover.spi.Sink;
import io.mover.spi.SinkWriter;

import static java.util.Objects.requireNonNull;

/**
 * A store of files under a local root, each with a SHA-256 sidecar. Files are written to a temporary
 * beside their final name and renamed into place at commit, after their sidecar. Thread-safe: the
 * only shared state is the set of open temporaries.
 */
final class ChecksumSink implements Sink, ContentHashes {
    private static final EndpointInfo INFO = new EndpointInfo(Duration.ofMillis(1), Set.of("sha256"), true, false, true);

    private final StoreLayout layout;
    private final String jobKey;
    private final boolean fsync;
    private final Set<Path> open = ConcurrentHashMap.newKeySet();

    ChecksumSink(Path root, String jobKey, boolean fsync) {
        this.layout = new StoreLayout(requireNonNull(root, "root is null"));
        this.jobKey = requireNonNull(jobKey, "jobKey is null");
        this.fsync = fsync;
    }

    @Override
    public EndpointInfo info() {
        return INFO;
    }

    @Override
    public Optional<Entry> stat(RelativePath path) {
        if (StoreLayout.isHidden(path)) {
            return Optional.empty();
        }
        return entry(layout.data(path), path);
    }

    private static Optional<Entry> entry(Path file, RelativePath path) {
        try {
            BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            EntryType type = attributes.isRegularFile() ? EntryType.FILE : attributes.isDirectory() ? EntryType.DIRECTORY : EntryType.OTHER;
            long size = type == EntryType.FILE ? attributes.size() : 0;
            return Optional.of(new Entry(path, type, size, attributes.lastModifiedTime().toInstant(), io.mover.spi.Attributes.NONE));
        }
        catch (NoSuchFileException | NotDirectoryException missing) {
            return Optional.empty();
        }
        catch (IOException e) {
            throw IoFailures.map(e, "read the attributes of", file);
        }
    }

    /** Reads the directory eagerly: this store is for modest trees; a large one would stream the DirectoryStream. */
    @Override
    public Stream<Entry> list(RelativePath directory) {
        Path dir = layout.data(directory);
        Entry self = stat(directory).orElseThrow(() -> new MoverException(ErrorCode.NOT_FOUND, "cannot list " + directory + ": no such directory"));
        if (!self.isDirectory()) {
            throw new MoverException(ErrorCode.NOT_A_DIRECTORY, "cannot list " + directory + ": not a directory");
        }
        List<Entry> entries = new ArrayList<>();
        try (DirectoryStream<Path> children = Files.newDirectoryStream(dir)) {
            for (Path child : children) {
                RelativePath path = directory.resolve(child.getFileName().toString());
                if (!StoreLayout.isHidden(path)) {
                    entry(child, path).ifPresent(entries::add);
                }
            }
        }
        catch (IOException e) {
            throw IoFailures.map(e, "list", dir);
        }
        return entries.stream();
    }

    @Override
    public boolean mkdirs(RelativePath directory) {
        StoreLayout.refuseReserved(directory);
        Path dir = layout.data(directory);
        if (Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return false;
        }
        try {
            Files.createDirectories(dir);
            return true;
        }
        catch (java.nio.file.FileAlreadyExistsException fileInTheWay) {
            // createDirectories reports a file on the way as "already exists"; the contract calls it NOT_A_DIRECTORY
            throw new MoverException(ErrorCode.NOT_A_DIRECTORY, "cannot create directory " + directory + ": a file is in the way", fileInTheWay);
        }
        catch (IOException e) {
            throw IoFailures.map(e, "create directory", dir);
        }
    }

    @Override
    public SinkWriter create(RelativePath path, long size, Entry entry) {
        if (path.isRoot()) {
            throw new MoverException(ErrorCode.INVALID_PATH, "cannot write a file at the root of the store");
        }
        StoreLayout.refuseReserved(path);
        Path target = layout.data(path);
        Path temporary = target.resolveSibling(StoreLayout.temporaryName(jobKey));
        try {
            FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            open.add(temporary);
            return new ChecksumWriter(new ChecksumWriter.Target(path, target, temporary, layout.sidecar(path), jobKey),
                    channel, entry, fsync, () -> open.remove(temporary));
        }
        catch (IOException e) {
            throw IoFailures.map(e, "create", target);
        }
    }

    @Override
    public void delete(RelativePath path, boolean recursive) {
        if (path.isRoot()) {
            throw new MoverException(ErrorCode.INVALID_PATH, "refusing to delete the root of the store");
        }
        StoreLayout.refuseReserved(path);
        Path file = layout.data(path);
        try {
            if (Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS)) {
                if (recursive) {
                    deleteTree(file);
                }
                else {
                    Files.deleteIfExists(file);
                }
                deleteTree(layout.sidecarDirectory(path));
                return;
            }
            Files.deleteIfExists(file);
            Files.deleteIfExists(layout.sidecar(path));
        }
        catch (NoSuchFileException | NotDirectoryException gone) {
            // nothing there, or a file where a parent would be: either way the path does not exist
        }
        catch (IOException e) {
            throw IoFailures.map(e, "delete", file);
        }
    }

    private static void deleteTree(Path top) throws IOException {
        if (!Files.exists(top, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Files.walkFileTree(top, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException failure) throws IOException {
                if (failure != null) {
                    throw failure;
                }
                Files.delete(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    @Override
    public void setAttributes(RelativePath path, Entry entry) {
        Path file = layout.data(path);
        try {
            Files.setLastModifiedTime(file, FileTime.from(entry.lastModified()));
        }
        catch (IOException e) {
            throw IoFailures.map(e, "set the modification time of", file);
        }
    }

    @Override
    public int removeStaleTemporaries(RelativePath directory) {
        return removeStale(layout.data(directory)) + removeStale(layout.sidecarDirectory(directory));
    }

    private int removeStale(Path dir) {
        int removed = 0;
        try (DirectoryStream<Path> children = Files.newDirectoryStream(dir, child -> StoreLayout.isTemporaryOf(child.getFileName().toString(), jobKey))) {
            for (Path child : children) {
                if (!open.contains(child) && Files.deleteIfExists(child)) {
                    removed++;
                }
            }
        }
        catch (NoSuchFileException | NotDirectoryException missing) {
            return 0;
        }
        catch (IOException e) {
            throw IoFailures.map(e, "remove stale temporaries in", dir);
        }
        return removed;
    }

    @Override
    public Optional<String> hash(RelativePath path, String kind) {
        if (!kind.equals("sha256") || StoreLayout.isHidden(path)) {
            return Optional.empty();
        }
        Path sidecar = layout.sidecar(path);
        try {
            return Optional.of(Files.readString(sidecar, StandardCharsets.US_ASCII).strip());
        }
        catch (NoSuchFileException | NotDirectoryException missing) {
            return Optional.empty();
        }
        catch (IOException e) {
            throw IoFailures.map(e, "read the checksum of", layout.data(path));
        }
    }

    @Override
    public void close() {
        // nothing pooled: every writer owns its channel and closes it at commit or abort
    }
}
