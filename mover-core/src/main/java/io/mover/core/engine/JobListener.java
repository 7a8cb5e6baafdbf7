package io.mover.core.engine;

/**
 * Receives a job's progress. Called from one engine thread at a time, in order; must return quickly
 * (it runs on the progress ticker, not on a transfer thread).
 */
@FunctionalInterface
public interface JobListener {
    JobListener NONE = progress -> {};

    void onProgress(Progress progress);

    /**
     * In a dry run, each change the job would make ({@code copy}, later {@code delete}), as it is planned.
     * Called from transfer threads, possibly concurrently.
     */
    default void onDryRun(String action, String path, long size) {}

    /**
     * A file failed after its retries; a job service keeps these as the job's per-file results.
     * Called from transfer threads, possibly concurrently; must return quickly.
     */
    default void onFileFailed(FileFailure failure) {}

    /**
     * A sync with {@code --delete-destination prompt} has planned its deletes: whether to go ahead.
     * Called once, on the job's thread, before anything is deleted; may block while a person answers.
     * Without anyone to ask, nothing is deleted.
     */
    default boolean confirmDeletes(long files) {
        return false;
    }
}
