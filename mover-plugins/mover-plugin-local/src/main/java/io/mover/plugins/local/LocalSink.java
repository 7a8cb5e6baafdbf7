package io.mover.plugins.local;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

import io.mover.spi.EndpointInfo;
import io.mover.spi.FreeSpace;
import io.mover.spi.Entry;
import io.mover.spi.ErrorCode;
import io.mover.spi.HardLinks;
import io.mover.spi.MoverException;
import io.mover.spi.RelativePath;
import io.mover.spi.ResumableSink;
import io.mover.spi.ResumableWriter;
import io.mover.spi.ServerSideCopy;
import io.mover.spi.Sink;
import io.mover.spi.Source;
import io.mover.spi.SinkWriter;
import io.mover.spi.SymbolicLinks;

import static java.util.Objects.requireNonNull;

/**
 * Writes a local tree. Each file is written under a temporary name in its final directory
 * ({@link LocalTemporaries}) and renamed into place atomically at commit, so a reader
 * never sees a partial file and a crash leaves only temporaries that the next run of the job removes.
 */
final class LocalSink implements Sink, SymbolicLinks, HardLinks, ServerSideCopy, ResumableSink, FreeSpace {
    /** How long a resumable partial (with its journal) survives the sweep of stale temporaries after its last write. */
    private static final java.time.Duration KEEP_PARTIALS = java.time.Duration.ofHours(24);
    private final Path root;
    private final LocalConfinement confinement;
    private final String jobKey;
    private final boolean fsync;
    /** Whether blocks of zeros stay holes in the temporaries this sink creates ({@link SparseWrites}). */
    private final boolean sparse;
    private final Set<Path> open = ConcurrentHashMap.newKeySet();
    private static final Set<StandardOpenOption> CREATE_NEW_FOR_WRITING = Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);

    /** Copies from a local tree on raw descriptors; empty off Linux or off a local disk (see {@link LocalFiles#onLocalDisk}). */
    private final Optional<LocalKernelCopy> kernelCopy;
    private final LocalLinks links;

    LocalSink(Path root, String jobKey, boolean fsync, boolean sparse) {
        this(root, jobKey, fsync, sparse, LocalKernelCopy.tmpfileByDefault());
    }

    /** {@code tmpfile}: whether files copied from a local tree are created unnamed and linked into place (see {@link LocalKernelCopy}). */
    LocalSink(Path root, String jobKey, boolean fsync, boolean sparse, boolean tmpfile) {
        this(root, jobKey, fsync, sparse, tmpfile, true);
    }

    /** {@code linkByDescriptor}: false names unnamed files through {@code /proc/self/fd} only (see {@link LocalKernelCopy}); for tests. */
    LocalSink(Path root, String jobKey, boolean fsync, boolean sparse, boolean tmpfile, boolean linkByDescriptor) {
        this.root = requireNonNull(root, "root is null");
        this.confinement = new LocalConfinement(root);
        this.jobKey = requireNonNull(jobKey, "jobKey is null");
        this.links = new LocalLinks(confinement, jobKey);
        this.fsync = fsync;
        this.sparse = sparse;
        this.kernelCopy = LinuxCalls.INSTANCE.filter(calls -> LocalFiles.onLocalDisk(root))
                .map(calls -> new LocalKernelCopy(calls, BeneathRoot.open(calls, root), jobKey, fsync, open, tmpfile, linkByDescriptor));
    }

    /** The raw-descriptor copy, for tests. */
    Optional<LocalKernelCopy> kernelCopy() {
        return kernelCopy;
    }

    @Override
    public EndpointInfo info() {
        return LocalFiles.INFO;
    }

    /** The usable space of the file system holding {@code directory}, or its nearest existing folder (statfs). */
    @Override
    public OptionalLong usableSpace(RelativePath directory) {
        Path existing = confinement.inside(directory);
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Files.getFileStore(existing).getUsableSpace());
        }
        catch (IOException e) {
            throw IoErrors.map(e, "read the free space of", existing);
        }
    }

    @Override
    public Optional<Entry> stat(RelativePath path) {
        if (LocalTemporaries.isTemporary(path.name())) {
            return Optional.empty();
        }
        Path file = confinement.inside(path);
        try {
            return LocalFiles.entry(file, path, false);
        }
        catch (IOException e) {
            throw IoErrors.map(e, "read the attributes of", file);
        }
    }

    @Override
    public Stream<Entry> list(RelativePath directory) {
        Path dir = confinement.inside(directory);
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
                throw new MoverException(ErrorCode.NOT_A_DIRECTORY, "cannot list " + dir + ": not a directory");
            }
            throw new MoverException(ErrorCode.NOT_FOUND, "cannot list " + dir + ": no such directory");
        }
        try {
            // the raw-descriptor calls are taken on a local disk only, for the listing as for the copy
            return LocalFiles.list(dir, directory, false, name -> !LocalTemporaries.isTemporary(name), kernelCopy.isPresent());
        }
        catch (IOException e) {
            throw IoErrors.map(e, "list", dir);
        }
    }

    /**
     * Creates each missing segment in turn and refuses to pass through a symbolic link or a file, so a
     * link planted in the destination cannot redirect writes outside the root.
     */
    @Override
    public boolean mkdirs(RelativePath directory) {
        LocalTemporaries.refuseReserved(directory);
        Path current = root;
        boolean created = false;
        for (String segment : directory.segments()) {
            current = current.resolve(segment);
            try {
                BasicFileAttributes attributes = Files.readAttributes(current, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                if (attributes.isSymbolicLink()) {
                    confinement.checkLinkedDirectory(current, directory);
                }
                else if (!attributes.isDirectory()) {
                    throw new MoverException(ErrorCode.NOT_A_DIRECTORY, "cannot create directory " + current
                            + ": a file is in the way; remove it or choose another destination");
                }
            }
            catch (NoSuchFileException missing) {
                try {
                    Files.createDirectory(current);
                    created = true;
                }
                catch (java.nio.file.FileAlreadyExistsException raced) {
                    if (!Files.isDirectory(current, LinkOption.NOFOLLOW_LINKS)) {
                        throw IoErrors.map(raced, "create directory", current);
                    }
                }
                catch (IOException e) {
                    throw IoErrors.map(e, "create directory", current);
                }
            }
            catch (IOException e) {
                throw IoErrors.map(e, "read the attributes of", current);
            }
        }
        return created;
    }

    @Override
    public SinkWriter create(RelativePath path, long size, Entry entry) {
        Path target = target(path);
        return newWriter(path, target, target.resolveSibling(LocalTemporaries.name(jobKey, path.name())), entry);
    }

    private Path target(RelativePath path) {
        if (path.isRoot()) {
            throw new MoverException(ErrorCode.INVALID_PATH, "cannot write a file at the destination root; name a directory as destination");
        }
        LocalTemporaries.refuseReserved(path);
        return confinement.inside(path);
    }

    /** See {@link LocalPartials#resume}. */
    @Override
    public ResumableWriter resume(RelativePath path, long size, Entry entry, String key) {
        Path target = target(path);
        Path temporary = target.resolveSibling(LocalTemporaries.resumableName(jobKey, key, path.name()));
        return LocalPartials.resume(temporary, size, open, () -> newWriter(path, target, temporary, entry),
                (channel, existing) -> new LocalSinkWriter(path, target, temporary, channel, entry, fsync, false, kernelCopy.isPresent(), open, existing, false));
    }

    private LocalSinkWriter newWriter(RelativePath path, Path target, Path temporary, Entry entry) {
        try {
            OptionalInt mode = LocalFiles.POSIX ? entry.attributes().posixMode() : OptionalInt.empty();
            // created with the source's mode: when the umask leaves it whole, commit needs no chmod
            FileChannel channel = mode.isPresent()
                    ? FileChannel.open(temporary, CREATE_NEW_FOR_WRITING, PosixFilePermissions.asFileAttribute(LocalFiles.toPermissions(mode.getAsInt())))
                    : FileChannel.open(temporary, CREATE_NEW_FOR_WRITING);
            open.add(temporary);
            boolean modeSet = mode.isPresent() && LocalFiles.createdWithExactMode(mode.getAsInt());
            return new LocalSinkWriter(path, target, temporary, channel, entry, fsync, modeSet, kernelCopy.isPresent(), open, 0, sparse);
        }
        catch (IOException e) {
            // name the file the user asked for, not our temporary
            throw IoErrors.map(e, "create", target);
        }
    }

    /**
     * From another local tree: the bytes go file to file in the kernel (copy_file_range). Both trees on a local
     * disk under Linux: on raw descriptors ({@link LocalKernelCopy}); otherwise, or where that declines, through
     * the same temporary and rename as {@link #create}. Any other source: empty, and the engine streams.
     */
    @Override
    public Optional<Entry> copyFrom(Source source, Entry entry, RelativePath target) {
        if (!(source instanceof LocalSource local) || !entry.isFile()) {
            return Optional.empty();
        }
        if (kernelCopy.isPresent() && local.onLocalDisk()) {
            Optional<Entry> copied = kernelCopy.get().copy(local.file(entry.path()), target(target), target, entry);
            if (copied.isPresent()) {
                return copied;
            }
        }
        LocalSinkWriter writer = (LocalSinkWriter) create(target, entry.size(), entry);
        boolean committed = false;
        try (FileChannel in = local.openChannel(entry.path())) {
            if (in.size() != entry.size()) {
                throw new MoverException(ErrorCode.SOURCE_CHANGED, "size changed from " + entry.size() + " to " + in.size() + " since it was listed");
            }
            writer.transferFrom(in, entry.size());
            Entry result = writer.commit();
            committed = true;
            return Optional.of(result);
        }
        catch (IOException e) {
            throw IoErrors.map(e, "open", local.file(entry.path()));
        }
        finally {
            if (!committed) {
                writer.abort();
            }
        }
    }

    @Override
    public void delete(RelativePath path, boolean recursive) {
        if (path.isRoot()) {
            throw new MoverException(ErrorCode.INVALID_PATH, "refusing to delete the destination root");
        }
        Path file = confinement.inside(path);
        // a deleted folder may come back as a link: check again from scratch
        confinement.forget();
        try {
            if (recursive && Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS)) {
                LocalFiles.deleteTree(file);
            }
            else {
                Files.deleteIfExists(file);
            }
        }
        catch (NoSuchFileException ignored) {
            // deleted concurrently: the outcome asked for
        }
        catch (IOException e) {
            throw IoErrors.map(e, "delete", file);
        }
    }

    @Override
    public void setAttributes(RelativePath path, Entry entry) {
        Path file = confinement.inside(path);
        try {
            LocalFiles.applyAttributes(file, entry);
        }
        catch (IOException e) {
            throw IoErrors.map(e, "set the attributes of", file);
        }
    }

    @Override
    public int removeStaleTemporaries(RelativePath directory) {
        Path dir = confinement.inside(directory);
        String prefix = LocalTemporaries.PREFIX + jobKey + ".";
        int removed = 0;
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir, file -> file.getFileName().toString().startsWith(prefix) && LocalTemporaries.isTemporary(file.getFileName().toString()))) {
            for (Path file : stream) {
                if (!open.contains(file) && !LocalPartials.kept(file, open, KEEP_PARTIALS) && Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) && Files.deleteIfExists(file)) {
                    removed++;
                }
            }
        }
        catch (NoSuchFileException | java.nio.file.NotDirectoryException ignored) {
            return 0;
        }
        catch (IOException e) {
            throw IoErrors.map(e, "remove stale temporaries in", dir);
        }
        return removed;
    }

    @Override
    public void createSymbolicLink(RelativePath path, String target) {
        links.symbolic(path, target);
    }

    /** The file at {@code existing} must be a regular file inside the root (a link is never followed). */
    @Override
    public void createHardLink(RelativePath path, RelativePath existing) {
        links.hard(path, existing);
    }

    @Override
    public void close() {
        kernelCopy.ifPresent(LocalKernelCopy::close);
    }
}
