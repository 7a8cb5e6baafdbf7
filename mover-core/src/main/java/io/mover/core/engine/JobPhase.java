package io.mover.core.engine;

import static java.util.Objects.requireNonNull;

/**
 * What a job that runs in steps is doing now (a bench: "concurrency 16: reading back"), and how far it is.
 *
 * @param description the step in words
 * @param step the steps finished before this one (0 for the first)
 * @param steps all its steps
 */
public record JobPhase(String description, int step, int steps) {
    public JobPhase {
        requireNonNull(description, "description is null");
        if (step < 0 || steps < 0 || step > steps) {
            throw new IllegalArgumentException("step must be between 0 and steps, got " + step + " of " + steps);
        }
    }

    /** 0 to 100. */
    public double percent() {
        return steps == 0 ? 0 : step * 100.0 / steps;
    }
}
