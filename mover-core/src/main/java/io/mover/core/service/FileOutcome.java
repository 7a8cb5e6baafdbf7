package io.mover.core.service;

/** How one file of a job ended. */
public enum FileOutcome {
    TRANSFERRED,
    SKIPPED,
    FAILED
}
