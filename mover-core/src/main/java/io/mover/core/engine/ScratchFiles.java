package io.mover.core.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Removing folders the engine or a job service owns whole (scratch space, a sync catalog's generations). */
public final class ScratchFiles {
    private static final System.Logger LOG = System.getLogger(ScratchFiles.class.getName());

    private ScratchFiles() {}

    /** Removes {@code root} and everything below it; a failure is logged, never thrown (what owned it is done with it). */
    public static void delete(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
        catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "could not remove " + root + ": " + e.getMessage());
        }
    }
}
