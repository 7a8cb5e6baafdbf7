package io.mover.core.service;

/** How one file of a job ended. */
public enum FileOutcome {
    TRANSFERRED,
    SKIPPED,
    FAILED,
    /** A sync removed it from the destination (recorded by the durable job service). */
    DELETED
}
