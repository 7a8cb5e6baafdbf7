package io.mover.plugins.tcp.tar;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.mover.spi.Attributes;
import io.mover.spi.Entry;
import io.mover.spi.EntryType;
import io.mover.spi.ErrorCode;
import io.mover.spi.HardLinks;
import io.mover.spi.MoverException;
import io.mover.spi.RelativePath;
import io.mover.spi.Sink;
import io.mover.spi.SinkWriter;
import io.mover.spi.SymbolicLinks;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

import static java.util.Objects.requireNonNull;

/**
 * One received archive, entry by entry, into the destination's {@link Sink}. Every name becomes a
 * {@link RelativePath} (so {@code ..}, absolute paths, NUL and backslashes stop the archive, as they stop a
 * peer); the sink confines every write under its root (no write through a link that leaves it). Files go
 * through the sink's writer: a temporary, renamed at commit with the entry's time and mode, aborted (removed)
 * if the archive ends or breaks inside them. Symbolic and hard links that point outside the destination,
 * devices and pipes are skipped with a warning. Directory times and modes are applied at the end, deepest first, as
 * tar does, since writing their contents changes them. Not thread-safe: one per connection.
 */
final class TarExtraction {
    private static final int BUFFER = 1 << 20;
    private static final int MAX_WARNINGS = 20;
    private static final int MAX_DEFERRED_DIRECTORIES = 1_000_000;
    private static final int MAX_KNOWN_DIRECTORIES = 4096;

    private final Sink sink;
    private final TarFormat format;
    private final String from;
    private final System.Logger logger;
    private final List<Entry> directories = new ArrayList<>();
    private final Set<RelativePath> knownDirectories = new HashSet<>();
    private final ByteBuffer buffer = ByteBuffer.allocate(BUFFER);
    private int warnings;
    private long files;
    private long bytes;
    private long links;
    private long skipped;

    TarExtraction(Sink sink, TarFormat format, String from, System.Logger logger) {
        this.sink = requireNonNull(sink, "sink is null");
        this.format = requireNonNull(format, "format is null");
        this.from = requireNonNull(from, "from is null");
        this.logger = requireNonNull(logger, "logger is null");
    }

    /** What one archive brought. */
    record Result(long files, long bytes, long directories, long links, long skipped) {}

    /**
     * Reads the archive to its end from {@code in} (already checked to start like {@link #format}).
     *
     * @throws MoverException why the archive stopped: a bad path, a truncated or corrupt stream, a timeout,
     *         a sink failure; what was committed before stays, the file in progress is removed
     */
    Result run(InputStream in) {
        TarArchiveEntry entry = null;
        try (TarArchiveInputStream tar = new BoundedTarInput(format.compression().decompressing(in))) {
            while ((entry = tar.getNextEntry()) != null) {
                extract(tar, entry);
            }
        }
        catch (MoverException e) {
            throw e;
        }
        catch (IOException | RuntimeException e) {
            // the decompressors report corrupt input as unchecked exceptions (aircompressor's MalformedInputException)
            throw broken(e, entry);
        }
        applyDirectoryAttributes();
        return new Result(files, bytes, directories.size(), links, skipped);
    }

    private void extract(TarArchiveInputStream tar, TarArchiveEntry entry) throws IOException {
        RelativePath path = path(entry.getName());
        Instant modified = entry.getLastModifiedTime().toInstant();
        Attributes mode = Attributes.ofMode(entry.getMode() & 07777);
        if (entry.isDirectory()) {
            if (!path.isRoot()) {
                ensureDirectory(path);
                if (directories.size() < MAX_DEFERRED_DIRECTORIES) {
                    directories.add(new Entry(path, EntryType.DIRECTORY, 0, modified, mode));
                }
            }
            return;
        }
        if (path.isRoot()) {
            throw new MoverException(ErrorCode.INVALID_PATH, "entry '" + entry.getName() + "' names the destination itself");
        }
        if (entry.isSymbolicLink()) {
            symbolicLink(path, entry.getLinkName());
            return;
        }
        if (entry.isLink()) {
            hardLink(path, entry.getLinkName());
            return;
        }
        if (entry.isCharacterDevice() || entry.isBlockDevice() || entry.isFIFO()) {
            skip(path, "a device or a pipe");
            return;
        }
        if (!entry.isFile()) {
            skip(path, "an entry of tar type '" + (char) entry.getLinkFlag() + "' that is neither a file, a directory nor a link");
            return;
        }
        file(tar, path, entry.isSparse() ? entry.getRealSize() : entry.getSize(), new Entry(path, EntryType.FILE, 0, modified, mode));
    }

    private void file(TarArchiveInputStream tar, RelativePath path, long size, Entry meta) throws IOException {
        ensureDirectory(path.parent());
        SinkWriter writer = sink.create(path, size, new Entry(path, EntryType.FILE, size, meta.lastModified(), meta.attributes()));
        boolean committed = false;
        try {
            long position = 0;
            while (position < size) {
                int n = tar.read(buffer.array(), 0, (int) Math.min(BUFFER, size - position));
                if (n < 0) {
                    throw new EOFException("the entry ended after " + position + " of its " + size + " bytes");
                }
                buffer.clear().limit(n);
                writer.write(position, buffer);
                position += n;
            }
            writer.commit();
            committed = true;
            files++;
            bytes += size;
        }
        finally {
            if (!committed) {
                abortQuietly(writer, path);
            }
        }
    }

    private void symbolicLink(RelativePath path, String target) {
        if (!(sink instanceof SymbolicLinks links)) {
            skip(path, "a symbolic link, which the destination cannot hold");
            return;
        }
        if (!staysInside(path, target)) {
            skip(path, "a symbolic link to '" + target + "', outside the destination");
            return;
        }
        ensureDirectory(path.parent());
        links.createSymbolicLink(path, target);
        this.links++;
    }

    /** A hard link names an earlier member of the archive, by its path from the root. */
    private void hardLink(RelativePath path, String target) {
        if (!(sink instanceof HardLinks hardLinks)) {
            skip(path, "a hard link, which the destination cannot hold (create the archive with tar --hard-dereference to send its content)");
            return;
        }
        RelativePath existing;
        try {
            existing = path(target);
        }
        catch (MoverException e) {
            skip(path, "a hard link to '" + target + "', outside the destination");
            return;
        }
        if (existing.isRoot()) {
            skip(path, "a hard link to the destination itself");
            return;
        }
        ensureDirectory(path.parent());
        try {
            hardLinks.createHardLink(path, existing);
            links++;
        }
        catch (MoverException e) {
            if (e.code() != ErrorCode.NOT_FOUND) {
                throw e;
            }
            skip(path, "a hard link to " + existing + ", which is not a file here");
        }
    }

    /** Whether {@code target}, read from the link's folder, names something under the destination root. */
    static boolean staysInside(RelativePath link, String target) {
        if (target.isEmpty() || target.startsWith("/") || target.indexOf('\0') >= 0) {
            return false;
        }
        Deque<String> resolved = new ArrayDeque<>(link.parent().segments());
        for (String segment : target.split("/")) {
            if (segment.equals("..")) {
                if (resolved.isEmpty()) {
                    return false;
                }
                resolved.removeLast();
            }
            else if (!segment.isEmpty() && !segment.equals(".")) {
                resolved.addLast(segment);
            }
        }
        return true;
    }

    /** An entry name as tar writes it ({@code ./a/b}, {@code a/dir/}) as a checked path; {@code .} is the root. */
    static RelativePath path(String name) {
        String path = name;
        while (path.startsWith("./")) {
            path = path.substring(2);
        }
        while (path.endsWith("/") && path.length() > 1) {
            path = path.substring(0, path.length() - 1);
        }
        if (path.equals(".")) {
            return RelativePath.ROOT;
        }
        try {
            return RelativePath.of(path);
        }
        catch (MoverException e) {
            throw new MoverException(ErrorCode.INVALID_PATH, "entry " + e.getMessage().replaceFirst("^invalid path ", "") + "; the archive is refused");
        }
    }

    /** Creates the folder once per archive, and removes temporaries an earlier, killed receiver left in it. */
    private void ensureDirectory(RelativePath directory) {
        if (directory.isRoot() || knownDirectories.contains(directory)) {
            return;
        }
        sink.mkdirs(directory);
        sink.removeStaleTemporaries(directory);
        if (knownDirectories.size() >= MAX_KNOWN_DIRECTORIES) {
            knownDirectories.clear();
        }
        knownDirectories.add(directory);
    }

    private void applyDirectoryAttributes() {
        directories.sort(Comparator.comparingInt((Entry e) -> e.path().depth()).reversed());
        for (Entry directory : directories) {
            try {
                sink.setAttributes(directory.path(), directory);
            }
            catch (MoverException e) {
                warn("could not set the time and mode of " + directory.path() + ": " + e.getMessage());
            }
        }
    }

    private void skip(RelativePath path, String why) {
        skipped++;
        warn("skipped " + path + ": " + why);
    }

    private void warn(String message) {
        if (warnings++ < MAX_WARNINGS) {
            logger.log(System.Logger.Level.WARNING, "archive from " + from + ": " + message);
        }
        else if (warnings == MAX_WARNINGS + 1) {
            logger.log(System.Logger.Level.WARNING, "archive from " + from + ": more warnings follow; only their count is logged at the end");
        }
    }

    /** Why the stream stopped, as one sentence an operator can act on. */
    private MoverException broken(Exception e, TarArchiveEntry entry) {
        String where = entry == null ? "before its first entry" : "in or after '" + entry.getName() + "'";
        String detail = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        if (e instanceof SocketTimeoutException) {
            return new MoverException(ErrorCode.TIMEOUT, "the sender sent nothing for too long " + where + " (" + files + " files were written before)");
        }
        boolean truncated = e instanceof EOFException || detail.contains("Truncated") || detail.contains("Premature end")
                || detail.contains("Not enough input") || detail.contains("Unexpected end");
        if (truncated) {
            return new MoverException(ErrorCode.CONNECTION_LOST, "the archive ended early " + where + " (" + detail + "); " + files
                    + " files were written before it, the one in progress was removed");
        }
        return new MoverException(ErrorCode.INVALID_ARGUMENT, "the stream is not a valid " + format + " archive " + where + " (" + detail + "); "
                + files + " files were written before it, the one in progress was removed");
    }

    private void abortQuietly(SinkWriter writer, RelativePath path) {
        try {
            writer.abort();
        }
        catch (RuntimeException e) {
            logger.log(System.Logger.Level.WARNING, "could not remove the unfinished " + path + ": " + e.getMessage());
        }
    }

    int warnings() {
        return warnings;
    }

    /**
     * Commons Compress reads a PAX header or a GNU long name whole into memory, whatever size its header
     * claims: a hostile sender could exhaust the heap with one. These are names and attributes, so more
     * than {@value #MAX_METADATA} bytes of them is refused before any is read.
     */
    static final class BoundedTarInput extends TarArchiveInputStream {
        static final int MAX_METADATA = 1 << 20;

        BoundedTarInput(InputStream in) {
            super(in, "UTF-8");
        }

        @Override
        public int read(byte[] target, int offset, int length) throws IOException {
            TarArchiveEntry current = getCurrentEntry();
            if (current != null && current.getSize() > MAX_METADATA && (current.isPaxHeader() || current.isGlobalPaxHeader()
                    || current.isGNULongNameEntry() || current.isGNULongLinkEntry())) {
                throw new IOException("a tar header extension of " + current.getSize() + " bytes, more than the " + MAX_METADATA + " allowed");
            }
            return super.read(target, offset, length);
        }
    }
}
