package io.mover.core.engine;

/** What a job does. Sync and bench arrive with their issues. */
public enum JobKind {
    COPY
}
