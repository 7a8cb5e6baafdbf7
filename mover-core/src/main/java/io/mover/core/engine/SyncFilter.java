package io.mover.core.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import io.mover.spi.Entry;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.RelativePath;

/**
 * Which entries a sync considers, applied alike to both sides: an entry it leaves out at the source is
 * not copied, and one it leaves out at the destination is not deleted (as rsync and rclone filter).
 * Globs ({@link PathFilter}), {@code --files-from}, and size and age bounds on files. Immutable.
 */
final class SyncFilter {
    private final PathFilter globs;
    private final boolean hasGlobs;
    private final Optional<Set<String>> files;
    private final Set<String> folders;
    private final long minSize;
    private final long maxSize;
    private final Optional<Instant> newestAllowed;
    private final Optional<Instant> oldestAllowed;

    SyncFilter(TransferOptions options, Instant now) {
        SyncOptions sync = options.sync();
        this.globs = new PathFilter(options.includes(), options.excludes());
        this.hasGlobs = !options.includes().isEmpty() || !options.excludes().isEmpty();
        this.files = sync.filesFrom().map(SyncFilter::readList);
        this.folders = new HashSet<>();
        files.ifPresent(list -> list.forEach(path -> {
            for (RelativePath p = RelativePath.of(path).parent(); !p.isRoot(); p = p.parent()) {
                folders.add(p.toString());
            }
        }));
        this.minSize = sync.minSize();
        this.maxSize = sync.maxSize();
        this.newestAllowed = sync.minAge().map(now::minus);
        this.oldestAllowed = sync.maxAge().map(now::minus);
    }

    /** Whether a file or link is considered at all. */
    boolean considers(Entry entry) {
        RelativePath path = entry.path();
        if (!globs.includesFile(path) || (files.isPresent() && !files.get().contains(path.toString()))) {
            return false;
        }
        if (!entry.isFile()) {
            return true;
        }
        // no lambda per entry: this runs for every file of both trees
        return entry.size() >= minSize && (maxSize < 0 || entry.size() <= maxSize)
                && (newestAllowed.isEmpty() || !entry.lastModified().isAfter(newestAllowed.get()))
                && (oldestAllowed.isEmpty() || !entry.lastModified().isBefore(oldestAllowed.get()));
    }

    /** Whether a folder is entered (and, when only at the destination, deleted). */
    boolean enters(RelativePath directory) {
        return globs.entersDirectory(directory) && (files.isEmpty() || folders.contains(directory.toString()));
    }

    /** Whether any filter is set, so that one matching nothing deserves a warning. */
    boolean active() {
        return hasGlobs || files.isPresent() || minSize > 0 || maxSize >= 0 || newestAllowed.isPresent() || oldestAllowed.isPresent();
    }

    /** Reads {@code --files-from}: one relative path a line; blank lines and lines starting with {@code #} are skipped. */
    static Set<String> readList(String file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(Path.of(file));
        }
        catch (IOException | RuntimeException e) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "cannot read --files-from " + file + ": " + e.getMessage()
                    + "; name a readable file of relative paths, one a line");
        }
        Set<String> paths = new HashSet<>();
        for (String line : lines) {
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                continue;
            }
            while (trimmed.startsWith("/")) {
                trimmed = trimmed.substring(1);
            }
            try {
                paths.add(RelativePath.of(trimmed).toString());
            }
            catch (MoverException e) {
                throw new MoverException(ErrorCode.INVALID_ARGUMENT, "--files-from " + file + ": " + e.getMessage());
            }
        }
        return paths;
    }
}
