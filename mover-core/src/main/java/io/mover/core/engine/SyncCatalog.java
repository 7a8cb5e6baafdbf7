package io.mover.core.engine;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.Optional;
import java.util.Spliterators;
import java.util.UUID;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

import io.mover.spi.EndpointUri;
import io.mover.spi.Entry;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.RelativePath;

/**
 * The destination's listing as the last successful sync of a (source, destination) pair left it ({@code --catalog},
 * issue 4): the next sync reads the destination's folders from here instead of listing them, the trade-off NetApp XCP
 * makes. Only right for destinations that nothing but mover writes: a change made there behind mover's back is not
 * seen (docs/cli.md, "--catalog").
 *
 * <p>Layout under {@code root/<sha-256 of the pair>/}: {@code current/} holds the entries every folder the sync walked
 * holds after the sync, and where each folder's are ({@link CatalogFiles}), and a {@code VERSION} file. A sync writes a
 * new generation beside it ({@code pending-<key>/}) while it plans, each folder as its walk of that folder ends
 * ({@link CatalogRecorder}); when the sync has succeeded it replaces {@code current} by renaming; when it fails, both are
 * removed. A folder the catalog does not have (one the last sync did not walk: excluded, or left alone) is listed for
 * real.
 */
public final class SyncCatalog {
    /** Bump when {@link EntryFormat} or this layout changes: an older catalog is then ignored, not misread. */
    static final String VERSION = "mover-catalog-4";
    private static final String CURRENT = "current";
    static final String ROOT = "ROOT";

    private final Path directory;
    private final String pair;
    private final Path pending;
    /** The current generation, opened at the first folder asked for (see {@link CatalogFiles#open}); kept open until {@link #close}. */
    private volatile CatalogFiles.Opened opened;
    private boolean closed;

    private SyncCatalog(Path directory, String pair, String jobKey) {
        this.directory = directory;
        this.pair = pair;
        this.pending = directory.resolve("pending-" + sha256(jobKey).substring(0, 16));
    }

    /**
     * The catalog of syncs from {@code source} to {@code destination} under {@code root} (locations as the user gave
     * them), as the sync job {@code jobKey} uses it: the generation it writes is its own until it commits.
     */
    public static SyncCatalog of(Path root, String source, String destination, String jobKey) {
        String pair = key(EndpointUri.parse(source)) + "\n" + key(EndpointUri.parse(destination));
        return new SyncCatalog(root.resolve(sha256(pair)), pair, jobKey);
    }

    /** The default root: {@code $MOVER_CATALOG_DIR} or {@code -Dmover.catalog.dir}, else {@code ~/.cache/mover/catalog}. */
    public static Path defaultRoot() {
        String configured = System.getProperty("mover.catalog.dir", System.getenv("MOVER_CATALOG_DIR"));
        return configured != null && !configured.isBlank() ? Path.of(configured)
                : Path.of(System.getProperty("user.home"), ".cache", "mover", "catalog");
    }

    /** Whether a catalog from a successful sync is there to read. */
    public boolean exists() {
        try {
            return Files.readString(directory.resolve(CURRENT).resolve("VERSION"), StandardCharsets.UTF_8).equals(VERSION + "\n" + pair);
        }
        catch (IOException e) {
            return false;
        }
    }

    /**
     * The folder's entries as the last successful sync left them; empty when the catalog has none (no catalog, or a
     * folder that sync did not walk): list it for real then. Safe to call from several threads.
     */
    Optional<Stream<Entry>> list(RelativePath folder) {
        CatalogFiles.Opened read = opened();
        long[] segments = read.index().folders().get(folder.toString());
        if (segments == null) {
            return Optional.empty();
        }
        Iterator<Entry> entries = CatalogFiles.entries(read.entries(), segments, folder, e -> failed("read", e));
        return Optional.of(StreamSupport.stream(Spliterators.spliteratorUnknownSize(entries, 0), false));
    }

    /** The current generation as this sync reads it: opened once, at the first call. */
    CatalogFiles.Opened opened() {
        CatalogFiles.Opened read = opened;
        if (read == null) {
            synchronized (this) {
                read = opened;
                if (read == null) {
                    try {
                        read = closed ? CatalogFiles.Opened.NONE : CatalogFiles.open(directory.resolve(CURRENT));
                    }
                    catch (IOException e) {
                        throw failed("read", e);
                    }
                    opened = read;
                }
            }
        }
        return read;
    }

    /** The sync has read what it needed: the generation's entries file is closed (nothing of the catalog is read after). */
    synchronized void close() {
        closed = true;
        CatalogFiles.Opened read = opened;
        opened = CatalogFiles.Opened.NONE;
        if (read != null) {
            try {
                read.close();
            }
            catch (IOException e) {
                // read-only; nothing to lose
            }
        }
    }

    /** Starts this job's generation; its files are written as the sync plans. */
    CatalogRecorder record() {
        return new CatalogRecorder(this, pending);
    }

    /**
     * When the destination's root was created, as the catalog's sync saw it; empty when it did not know (an endpoint
     * without creation times). A root created since is another folder (removed and made again, restored from a
     * backup, copied back with {@code cp -a}, which keeps modification times but not creation): its catalog is void.
     */
    Optional<Instant> rootCreated() {
        return rootCreated(directory.resolve(CURRENT));
    }

    /** When the destination's root was created, as {@code generation} keeps it (see {@link #rootCreated()}). */
    static Optional<Instant> rootCreated(Path generation) {
        try {
            return Optional.of(Instant.parse(Files.readString(generation.resolve(ROOT), StandardCharsets.UTF_8).strip()));
        }
        catch (IOException | DateTimeParseException e) {
            return Optional.empty();
        }
    }

    /** The job's sync succeeded: its generation becomes the catalog (when it recorded a complete one). */
    public void commit() {
        close();
        String complete;
        try {
            complete = Files.readString(pending.resolve(CatalogRecorder.COMPLETE), StandardCharsets.UTF_8);
        }
        catch (IOException e) {
            invalidate();
            return;
        }
        Path current = directory.resolve(CURRENT);
        if (complete.startsWith(CatalogRecorder.SAME)) {
            // the sync found the current generation exactly as it would have written it: kept, not written again,
            // unless another sync of the pair committed since (then which one is right is not known: none is kept)
            boolean kept;
            try {
                kept = exists() && Long.toString(CatalogFiles.id(current)).equals(complete.substring(CatalogRecorder.SAME.length()));
            }
            catch (IOException e) {
                kept = false;
            }
            if (kept) {
                ScratchFiles.delete(pending);
            }
            else {
                invalidate();
            }
            return;
        }
        Path old = directory.resolve("old-" + UUID.randomUUID());
        try {
            Files.writeString(pending.resolve("VERSION"), VERSION + "\n" + pair, StandardCharsets.UTF_8);
            if (Files.exists(current)) {
                Files.move(current, old, StandardCopyOption.ATOMIC_MOVE);
            }
            Files.move(pending, current, StandardCopyOption.ATOMIC_MOVE);
        }
        catch (IOException e) {
            invalidate();
            throw failed("save", e);
        }
        ScratchFiles.delete(old);
    }

    /** The job's sync did not succeed (or left the destination in a state it cannot account for): no catalog is left. */
    public void invalidate() {
        close();
        ScratchFiles.delete(pending);
        ScratchFiles.delete(directory.resolve(CURRENT));
    }

    private static String key(EndpointUri uri) {
        return uri.scheme() + "://" + uri.authority() + uri.path();
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }

    MoverException failed(String what, IOException e) {
        return new MoverException(ErrorCode.IO_ERROR, "cannot " + what + " the sync catalog under " + directory + ": " + e.getMessage(), e);
    }
}
