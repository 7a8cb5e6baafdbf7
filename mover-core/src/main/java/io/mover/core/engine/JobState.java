package io.mover.core.engine;

/** Where a job is in its life. */
public enum JobState {
    QUEUED,
    RUNNING,
    PAUSED,
    /** Every file was transferred or skipped. */
    SUCCEEDED,
    /** The job ran to the end but some files failed. */
    COMPLETED_WITH_ERRORS,
    /** The job stopped on a fatal error. */
    FAILED,
    CANCELLED;

    public boolean isTerminal() {
        return this == SUCCEEDED || this == COMPLETED_WITH_ERRORS || this == FAILED || this == CANCELLED;
    }
}
