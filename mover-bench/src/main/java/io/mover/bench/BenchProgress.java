package io.mover.bench;

/** Told as a bench starts each step: the step in words, the steps finished before it, and all of them. */
@FunctionalInterface
public interface BenchProgress {
    BenchProgress NONE = (description, step, steps) -> {};

    void phase(String description, int step, int steps);
}
