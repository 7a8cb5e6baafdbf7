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
 * Writes a sync's new catalog generation ({@link SyncCatalog}) as the planner walks, unless it would be the current
 * one again: while the destination is read from the current generation, every folder walked is one it has and every
 * entry recorded is the one it listed under that name, nothing is written. A re-sync with nothing changed then ends
 * with {@link #COMPLETE} saying {@link #SAME} and the generation's id, and {@link SyncCatalog#commit} keeps the current
 * generation instead of renaming a copy of it into place (writing 100,000 entries again cost a no-change server job
 * 20 ms of its planner's CPU, besides the files created, renamed and removed).
 * <p>
 * At the first difference (a copy, a delete, a folder the generation lacks, another root) the generation is written
 * after all: the folders already walked are copied from the current generation's entries as they are (they matched),
 * the open ones re-read up to where they matched, and the walk goes on writing. Used on the planner's thread only.
 */
final class CatalogRecorder implements SyncRecorder, AutoCloseable {
    static final String COMPLETE = "COMPLETE";
    /** {@link #COMPLETE}'s content when the generation would be the current one: followed by that one's id. */
    static final String SAME = "same ";

    private final SyncCatalog catalog;
    private final Path generation;
    /** The generation compared with; null when there is none, or once this one is being written. */
    private CatalogFiles.Opened base;
    private Optional<Instant> baseRoot = Optional.empty();
    /** While comparing: the folders walked and left, and those open (the innermost first) with how many entries matched. */
    private final List<String> matched = new ArrayList<>();
    private final Deque<Matching> open = new ArrayDeque<>();
    private CatalogFiles.Writer files;
    private Optional<Instant> root = Optional.empty();
    private boolean broken;
    private boolean closed;

    private static final class Matching {
        final RelativePath folder;
        long entries;

        Matching(RelativePath folder) {
            this.folder = folder;
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
        if (files == null && current.entries() != null) {
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
        else if (base != null && !root.equals(baseRoot)) {
            write();
        }
    }

    @Override
    public void enter(RelativePath folder) {
        if (base != null && base.index().folders().containsKey(folder.toString())) {
            open.push(new Matching(folder));
            return;
        }
        writing().enter(folder);
    }

    @Override
    public void entry(Entry entry, Entry listed) {
        if (base != null && entry != null && (entry == listed || entry.equals(listed))) {
            open.element().entries++;
            return;
        }
        if (entry != null || base != null) {
            CatalogFiles.Writer writer = writing();
            if (entry != null) {
                try {
                    writer.entry(entry);
                }
                catch (IOException e) {
                    throw catalog.failed("write", e);
                }
            }
        }
    }

    @Override
    public void leave() {
        if (base != null) {
            matched.add(open.pop().folder.toString());
            return;
        }
        try {
            writing().leave();
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
            if (base != null && matched.size() == base.index().folders().size() && root.equals(baseRoot)) {
                Files.createDirectories(generation);
                Files.writeString(generation.resolve(COMPLETE), SAME + base.index().generation(), StandardCharsets.UTF_8);
                return;
            }
            writing().close();
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

    /** The writer; started at the first call, with what matched so far written first. */
    private CatalogFiles.Writer writing() {
        if (files != null) {
            return files;
        }
        CatalogFiles.Opened from = base;
        base = null;
        try {
            Files.createDirectories(generation);
            files = new CatalogFiles.Writer(generation);
            if (root.isPresent()) {
                writeRoot();
            }
            if (from != null) {
                for (String folder : matched) {
                    files.copy(folder, from.entries(), from.index().folders().get(folder));
                }
                matched.clear();
                for (Iterator<Matching> outermost = open.descendingIterator(); outermost.hasNext();) {
                    Matching folder = outermost.next();
                    files.enter(folder.folder);
                    Iterator<Entry> entries = CatalogFiles.entries(from.entries(), from.index().folders().get(folder.folder.toString()),
                            folder.folder, e -> catalog.failed("read", e));
                    for (long i = 0; i < folder.entries; i++) { // bounded: the entries that matched, which the catalog holds
                        files.entry(entries.next());
                    }
                }
                open.clear();
            }
            return files;
        }
        catch (IOException e) {
            throw catalog.failed("write", e);
        }
    }

    private void writeRoot() {
        try {
            Files.writeString(generation.resolve(SyncCatalog.ROOT), root.orElseThrow().toString(), StandardCharsets.UTF_8);
        }
        catch (IOException e) {
            throw catalog.failed("write", e);
        }
    }

    private void write() {
        writing();
    }
}
