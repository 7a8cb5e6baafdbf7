package io.mover.core.engine;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;

import io.mover.spi.Entry;
import io.mover.spi.RelativePath;

/**
 * Writes a sync's new catalog generation ({@link SyncCatalog}) as the planner walks, without encoding again what the
 * current generation already holds: a folder the current generation has, whose every entry recorded is the one the
 * destination's listing (read from that generation) held under that name, is the same folder, and its bytes are
 * copied as they are. A re-sync where every folder is the same writes nothing: it ends with {@link #COMPLETE} saying
 * {@link #SAME} and the generation's id, and {@link SyncCatalog#commit} keeps the current generation instead of renaming
 * a copy of it into place (encoding 100,000 entries again cost a no-change server job 20 ms of its planner's CPU, besides
 * the files created, renamed and removed).
 * <p>
 * A folder is compared until its first difference (a copy, a delete, an entry the listing did not have); from there it
 * is written: the entries that matched re-read from the current generation, then the rest as recorded. Used on the
 * planner's thread only.
 */
final class CatalogRecorder implements SyncRecorder, AutoCloseable {
    static final String COMPLETE = "COMPLETE";
    /** {@link #COMPLETE}'s content when the generation would be the current one: followed by that one's id. */
    static final String SAME = "same ";

    private final SyncCatalog catalog;
    private final Path generation;
    /** The generation compared with; null when there is none. */
    private CatalogFiles.Opened base;
    private Optional<Instant> baseRoot = Optional.empty();
    /** The folders open, the innermost first. */
    private final Deque<Folder> open = new ArrayDeque<>();
    /** Folders left the same before {@link #files} was started: copied when it is. */
    private final List<String> toCopy = new ArrayList<>();
    private long same;
    private boolean differs;
    private CatalogFiles.Writer files;
    private Optional<Instant> root = Optional.empty();
    private boolean broken;
    private boolean closed;

    /** An open folder: how many of its entries matched, and whether it is written (it differs, or the base lacks it). */
    private static final class Folder {
        final RelativePath path;
        long matched;
        boolean written;

        Folder(RelativePath path, boolean written) {
            this.path = path;
            this.written = written;
        }
    }

    CatalogRecorder(SyncCatalog catalog, Path generation) {
        this.catalog = catalog;
        this.generation = generation;
        ScratchFiles.delete(generation);
    }

    /**
     * The destination is read from the current generation, whose root was created at {@code seenRoot}: compare with
     * it. Called before the walk, at most once.
     */
    void compare(Optional<Instant> seenRoot) {
        CatalogFiles.Opened current = catalog.opened();
        if (open.isEmpty() && current.entries() != null) {
            base = current;
            baseRoot = seenRoot;
        }
    }

    /** Keeps when the destination's root was created (see {@link SyncCatalog#rootCreated()}). */
    void root(Instant created) {
        root = Optional.of(created);
        if (files != null) {
            writeRoot();
        }
    }

    @Override
    public void enter(RelativePath folder, boolean listed) {
        // compared only when the walk read the destination's folder from the base: a folder the walk takes to be absent
        // there (made new) holds nothing whatever the base kept of it, and a base entry copied would hide a file
        boolean known = listed && base != null && base.index().folders().containsKey(folder.toString());
        open.push(new Folder(folder, !known));
        if (!known) {
            differs = true;
            writer().enter(folder);
        }
    }

    @Override
    public void entry(Entry entry, Entry listed) {
        Folder folder = open.element();
        if (!folder.written) {
            if (entry != null && (entry == listed || entry.equals(listed))) {
                folder.matched++;
                return;
            }
            written(folder);
        }
        if (entry != null) {
            try {
                writer().entry(entry);
            }
            catch (IOException e) {
                throw catalog.failed("write", e);
            }
        }
    }

    @Override
    public void leave() {
        Folder folder = open.pop();
        try {
            if (folder.written) {
                writer().leave();
            }
            else {
                same++;
                if (files != null) {
                    copy(folder.path.toString());
                }
                else {
                    toCopy.add(folder.path.toString());
                }
            }
        }
        catch (IOException e) {
            throw catalog.failed("write", e);
        }
    }

    @Override
    public void broken() {
        broken = true;
    }

    /** Marks the generation complete (the walk ended and every folder was recorded): {@link SyncCatalog#commit} may then use it. */
    void finish() {
        if (broken || !open.isEmpty() || files != null && files.hasOpenFolders()) {
            return;
        }
        try {
            closed = true;
            if (base != null && !differs && same == base.index().folders().size() && root.equals(baseRoot)) {
                Files.createDirectories(generation);
                Files.writeString(generation.resolve(COMPLETE), SAME + base.index().generation(), StandardCharsets.UTF_8);
                return;
            }
            writer().close();
            Files.writeString(generation.resolve(COMPLETE), "", StandardCharsets.UTF_8);
        }
        catch (IOException e) {
            throw catalog.failed("write", e);
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (files == null) {
            return;
        }
        broken |= files.hasOpenFolders();
        try {
            files.close();
        }
        catch (IOException e) {
            broken = true; // the generation is abandoned: finish() did not mark it complete
        }
    }

    /** The folder differs from here on: written from now, starting with the entries that matched (from the base). */
    private void written(Folder folder) {
        differs = true;
        folder.written = true;
        CatalogFiles.Writer writer = writer();
        writer.enter(folder.path);
        Iterator<Entry> entries = CatalogFiles.entries(base.entries(), base.index().folders().get(folder.path.toString()), folder.path,
                e -> catalog.failed("read", e));
        try {
            for (long i = 0; i < folder.matched; i++) { // bounded: the entries that matched, which the base holds
                writer.entry(entries.next());
            }
        }
        catch (IOException e) {
            throw catalog.failed("write", e);
        }
    }

    /** The writer; started at the first call, with the folders left the same so far copied first. */
    private CatalogFiles.Writer writer() {
        if (files != null) {
            return files;
        }
        try {
            Files.createDirectories(generation);
            files = new CatalogFiles.Writer(generation);
            if (root.isPresent()) {
                writeRoot();
            }
            for (String folder : toCopy) {
                copy(folder);
            }
            toCopy.clear();
            return files;
        }
        catch (IOException e) {
            throw catalog.failed("write", e);
        }
    }

    private void copy(String folder) throws IOException {
        files.copy(folder, base.entries(), base.index().folders().get(folder));
    }

    private void writeRoot() {
        try {
            Files.writeString(generation.resolve(SyncCatalog.ROOT), root.orElseThrow().toString(), StandardCharsets.UTF_8);
        }
        catch (IOException e) {
            throw catalog.failed("write", e);
        }
    }
}
