package io.mover.jobstore;

/** Where a work unit is. A unit is DONE once its holder committed it; it never leaves DONE. */
public enum UnitState {
    PENDING,
    RUNNING,
    DONE
}
