package io.mover.jobstore.schedule;

/** How a schedule's achieved recovery point compares with its target. */
public enum RpoState {
    /** Now minus the start of the last successful run is within the target. */
    RPO_MET,
    /** It is over the target: the replica is older than promised (a run failed, was skipped, or takes too long). */
    RPO_EXCEEDED,
    /** The schedule has no target; the achieved RPO is still measured. */
    NO_TARGET
}
