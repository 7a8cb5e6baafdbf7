package io.mover.jobstore;

import io.mover.core.engine.Stage;

import static java.util.Objects.requireNonNull;

/**
 * One node's figures for one stage of a job.
 *
 * @param nodeId the node
 * @param stage the stage
 * @param bytes bytes through it
 * @param busyNanos time inside it
 * @param waitNanos time waiting to enter it
 * @param ops operations
 */
public record NodeStageStats(String nodeId, Stage stage, long bytes, long busyNanos, long waitNanos, long ops) {
    public NodeStageStats {
        requireNonNull(nodeId, "nodeId is null");
        requireNonNull(stage, "stage is null");
    }
}
