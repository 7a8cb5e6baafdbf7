package io.mover.core.service;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** The scratch folders job services give plugins: removed whole when a job is done with them. */
public final class ScratchSpace {
    private static final System.Logger LOG = System.getLogger(ScratchSpace.class.getName());

    private ScratchSpace() {}

    /** Removes {@code root} and everything below it; a failure is logged, never thrown (the job is over either way). */
    public static void delete(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
        catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "could not remove scratch directory " + root + ": " + e.getMessage());
        }
    }
}
