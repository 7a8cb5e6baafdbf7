package io.mover.core.engine;

/** What a job does. Bench arrives with its issue. */
public enum JobKind {
    COPY,
    /** Make the destination equal the source: copy what is new or changed, optionally delete what the source lacks (issue 4). */
    SYNC
}
