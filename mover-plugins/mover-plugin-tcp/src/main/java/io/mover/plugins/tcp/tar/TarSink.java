package io.mover.plugins.tcp.tar;

import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

import io.mover.spi.EndpointInfo;
import io.mover.spi.Entry;
import io.mover.spi.ErrorCode;
import io.mover.spi.LinkSink;
import io.mover.spi.MoverException;
import io.mover.spi.RelativePath;
import io.mover.spi.Sink;
import io.mover.spi.SinkWriter;
import io.mover.spi.SymbolicLinks;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarConstants;

import static java.util.Objects.requireNonNull;

/**
 * {@code tcp://HOST:PORT/path} with a tar format: the tree goes out as one standard tar stream on one plain
 * connection, for {@code nc -l PORT | zstd -d | tar x} (docs/tar-interop.md). Entry names are the paths
 * below the URI's path ({@code tcp://h:9000/inbox} → {@code inbox/a/b.txt}); files carry their size,
 * modification time and mode, directories are written once their contents are (their time is then final),
 * symbolic links as links.
 *
 * <p>A stream sees nothing of the far side and cannot go back: listing, stat and delete are refused (so
 * {@code mover sync} and {@code --overwrite false} are), and a file that fails halfway breaks the stream
 * ({@link TarStream}). As a {@link LinkSink} whose far end decodes no block codec, it gets raw blocks only.
 * Thread-safe.
 */
final class TarSink implements Sink, SymbolicLinks, LinkSink {
    private static final EndpointInfo INFO = new EndpointInfo(Duration.ofSeconds(1), Set.of(), true, true, true);

    private final TarStream stream;
    private final RelativePath base;
    private final String description;
    private final System.Logger logger;
    private final long startNanos = System.nanoTime();
    private volatile boolean finished;
    private volatile boolean closed;

    TarSink(TarStream stream, RelativePath base, String description, System.Logger logger) {
        this.stream = requireNonNull(stream, "stream is null");
        this.base = requireNonNull(base, "base is null");
        this.description = requireNonNull(description, "description is null");
        this.logger = requireNonNull(logger, "logger is null");
    }

    @Override
    public EndpointInfo info() {
        return INFO;
    }

    @Override
    public Set<Byte> decodableCodecs() {
        // the tar format compresses the whole stream itself; engine blocks must arrive raw
        return Set.of();
    }

    @Override
    public Load load() {
        return new Load(stream.frames().bytesOut.sum(), stream.entries().waitNanos.sum());
    }

    @Override
    public Optional<Entry> stat(RelativePath path) {
        throw cannotSee("see what the receiver has (drop --overwrite false or if-source-newer)");
    }

    @Override
    public Stream<Entry> list(RelativePath directory) {
        throw cannotSee("list what the receiver has (mover sync needs the mover protocol)");
    }

    /** Directories are written when their contents are ({@link #setAttributes}); tar makes parents as it goes. */
    @Override
    public boolean mkdirs(RelativePath directory) {
        return !directory.isRoot();
    }

    @Override
    public SinkWriter create(RelativePath path, long size, Entry entry) {
        if (path.isRoot()) {
            throw new MoverException(ErrorCode.INVALID_PATH, "a file cannot be the root of a tar stream");
        }
        TarArchiveEntry header = new TarArchiveEntry(name(path));
        header.setSize(size);
        header.setMode(TarArchiveEntry.DEFAULT_FILE_MODE & ~07777 | entry.attributes().posixMode().orElse(0644) & 07777);
        header.setModTime(FileTime.from(entry.lastModified()));
        return new TarWriter(stream.entries(), header, new Entry(path, entry.type(), size, entry.lastModified(), entry.attributes()));
    }

    @Override
    public void delete(RelativePath path, boolean recursive) {
        throw cannotSee("delete at the receiver");
    }

    /**
     * A directory's entry, written after its contents (the engine calls this once they are committed), so
     * tar gives it its mode and time last. Anything else is refused: a file's entry is already sent.
     */
    @Override
    public void setAttributes(RelativePath path, Entry entry) {
        if (!entry.isDirectory()) {
            throw cannotSee("change " + path + " once it is sent");
        }
        if (path.isRoot() && base.isRoot()) {
            // the receiver's own directory: tar x -C DIR keeps its attributes
            return;
        }
        TarArchiveEntry header = new TarArchiveEntry(name(path) + "/");
        header.setMode(TarArchiveEntry.DEFAULT_DIR_MODE & ~07777 | entry.attributes().posixMode().orElse(0755) & 07777);
        header.setModTime(FileTime.from(entry.lastModified()));
        writeAlone(header);
    }

    @Override
    public void createSymbolicLink(RelativePath path, String target) {
        TarArchiveEntry header = new TarArchiveEntry(name(path), TarConstants.LF_SYMLINK);
        header.setLinkName(target);
        writeAlone(header);
    }

    /** An entry without data: header only, in its turn. */
    private void writeAlone(TarArchiveEntry header) {
        TarWriter writer = new TarWriter(stream.entries(), header, Entry.directory(RelativePath.ROOT, java.time.Instant.EPOCH));
        try {
            writer.commit();
        }
        catch (RuntimeException e) {
            writer.abort();
            throw e;
        }
    }

    /**
     * The job ends well: everything handed over is written, then tar's end-of-archive records; returns once
     * the connection took it all and was half-closed, so the far side's tar ends cleanly.
     *
     * @throws MoverException PLUGIN_FAILED when the stream broke: the job fails, as the archive is incomplete
     */
    @Override
    public void finish() {
        stream.finish();
        finished = true;
    }

    /**
     * Closes the connection. Without {@link #finish()} (a cancelled or failed job) it is reset: the far
     * side's tar reports a truncated archive instead of ending as if it were whole.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (finished) {
            stream.closeSocket();
        }
        else {
            stream.fail("the copy stopped before its end");
        }
        logSummary();
    }

    private void logSummary() {
        FrameOutputStream frames = stream.frames();
        long in = frames.position();
        long out = frames.bytesOut.sum();
        logger.log(System.Logger.Level.INFO, String.format(java.util.Locale.ROOT,
                "%s: %,d bytes of tar sent as %,d (%.2fx) in %.1f s; compressing %.1f s (all threads), sending %.1f s, files waited for the stream %.1f s%s",
                description, in, out, out == 0 ? 0.0 : (double) in / out, seconds(System.nanoTime() - startNanos), seconds(frames.compressNanos.sum()),
                seconds(frames.sendNanos.sum()), seconds(stream.entries().waitNanos.sum()), stream.isBroken() ? "; the stream broke" : ""));
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }

    private String name(RelativePath path) {
        return base.resolve(path).toString();
    }

    private static MoverException cannotSee(String what) {
        return new MoverException(ErrorCode.UNSUPPORTED, "a tar stream cannot " + what + ": it only sends; use the default format (the mover protocol) for that");
    }
}
