package io.mover.jobstore;

import io.mover.core.engine.Stage;

import static java.util.Objects.requireNonNull;

/**
 * What one stage measured during a unit (or part of it), added to the job's per-node figures at commit.
 *
 * @param stage the stage
 * @param bytes bytes through it
 * @param busyNanos time inside it, summed over threads
 * @param waitNanos time waiting to enter it, summed over threads
 * @param ops operations measured
 */
public record StageDelta(Stage stage, long bytes, long busyNanos, long waitNanos, long ops) {
    public StageDelta {
        requireNonNull(stage, "stage is null");
    }
}
