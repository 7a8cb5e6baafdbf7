package io.mover.plugins.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.RelativePath;

/**
 * Keeps a {@link LocalSink}'s paths inside its root: a symbolic link planted in the destination must not
 * redirect a write, a delete or a listing elsewhere. Thread-safe.
 */
final class LocalConfinement {
    private static final int MAX_CONFINED = 4096;

    private final Path root;
    /** The root with its links resolved: what every existing ancestor of a path must stay below. */
    private final Path realRoot;
    /** Directories already resolved inside the root; see {@link #inside}. Forgotten on any delete. */
    private final Set<Path> confined = ConcurrentHashMap.newKeySet();

    LocalConfinement(Path root) {
        this.root = root;
        try {
            this.realRoot = root.toRealPath();
        }
        catch (IOException e) {
            throw IoErrors.map(e, "resolve the destination", root);
        }
    }

    /**
     * {@code root} joined with {@code path}, refused when its deepest existing ancestor resolves outside
     * the root. (A link swapped in after this check is not caught; only someone who can already write
     * the destination can do that.) A directory found inside is remembered, so the files of one folder
     * pay for one {@code realpath}, not one each: it walks every component with {@code readlink} and
     * {@code lstat}, which was half the system calls of a small-file copy.
     */
    Path inside(RelativePath path) {
        Path file = LocalFiles.resolve(root, path);
        Path ancestor = file.getParent();
        if (path.depth() > 1 && confined.contains(ancestor)) {
            return file;
        }
        for (int level = path.depth() - 1; level > 0; level--, ancestor = ancestor.getParent()) {
            try {
                if (!ancestor.toRealPath().startsWith(realRoot)) {
                    throw escapes(path);
                }
                if (level == path.depth() - 1) {
                    remember(ancestor);
                }
                return file;
            }
            catch (NoSuchFileException missing) {
                // not there yet: nothing below it can be redirected, so ask its parent
            }
            catch (IOException e) {
                throw IoErrors.map(e, "resolve", ancestor);
            }
        }
        return file;
    }

    /** A link met by mkdirs may be passed through when it leads to a directory inside the root. */
    void checkLinkedDirectory(Path link, RelativePath directory) throws IOException {
        Path real;
        try {
            real = link.toRealPath();
        }
        catch (NoSuchFileException dangling) {
            throw new MoverException(ErrorCode.NOT_A_DIRECTORY, "cannot create directory " + link + ": a dangling symbolic link is in the way");
        }
        if (!real.startsWith(realRoot)) {
            throw escapes(directory);
        }
        if (!Files.isDirectory(real)) {
            throw new MoverException(ErrorCode.NOT_A_DIRECTORY, "cannot create directory " + link + ": a symbolic link to a file is in the way");
        }
    }

    /** After a delete: a removed folder may come back as a link, so every folder is checked again. */
    void forget() {
        confined.clear();
    }

    private void remember(Path directory) {
        if (confined.size() >= MAX_CONFINED) {
            // bounded: a tree of a million folders must not grow the heap; folders come in crawl order anyway
            confined.clear();
        }
        confined.add(directory);
    }

    private MoverException escapes(RelativePath path) {
        return new MoverException(ErrorCode.INVALID_PATH, "refusing '" + path + "': it passes through a symbolic link that leads outside the destination " + root);
    }
}
