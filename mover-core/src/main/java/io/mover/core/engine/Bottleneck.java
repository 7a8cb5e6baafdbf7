package io.mover.core.engine;

import static java.util.Objects.requireNonNull;

/**
 * The stage that limits a job, and the words that say so.
 *
 * @param stage the stage with the largest share of busy time on the data path
 * @param shareOfBusy that share, 0 to 1
 * @param explanation a sentence for the operator ({@code "WRITE: 71% of busy time, the destination is the limit"})
 */
public record Bottleneck(Stage stage, double shareOfBusy, String explanation) {
    public Bottleneck {
        requireNonNull(stage, "stage is null");
        requireNonNull(explanation, "explanation is null");
    }
}
