package io.mover.core.engine;

/**
 * Receives a job's progress. Called from one engine thread at a time, in order; must return quickly
 * (it runs on the progress ticker, not on a transfer thread).
 */
public interface JobListener {
    JobListener NONE = progress -> {};

    void onProgress(Progress progress);
}
