package io.mover.jobstore;

/** How a file of a job ended: the outcome recorded once per file. */
public enum FileOutcome {
    TRANSFERRED,
    SKIPPED,
    FAILED,
    /** A sync removed it from the destination (the source no longer has it). */
    DELETED
}
