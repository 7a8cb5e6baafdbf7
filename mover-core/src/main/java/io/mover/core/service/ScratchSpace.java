package io.mover.core.service;

import java.nio.file.Path;

import io.mover.core.engine.ScratchFiles;

/** The scratch folders job services give plugins: removed whole when a job is done with them. */
public final class ScratchSpace {
    private ScratchSpace() {}

    /** Removes {@code root} and everything below it; a failure is logged, never thrown (the job is over either way). */
    public static void delete(Path root) {
        ScratchFiles.delete(root);
    }
}
