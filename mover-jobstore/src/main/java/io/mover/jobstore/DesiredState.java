package io.mover.jobstore;

/** What the user asked a job to do; running units read it at the next file boundary. */
public enum DesiredState {
    RUNNING,
    PAUSED,
    CANCELLED
}
