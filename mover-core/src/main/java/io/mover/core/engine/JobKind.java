package io.mover.core.engine;

/** What a job does. */
public enum JobKind {
    COPY,
    /** Make the destination equal the source: copy what is new or changed, optionally delete what the source lacks (issue 4). */
    SYNC,
    /**
     * Measure the destination with generated data ({@link BenchOptions}, issue 8). Not run by the transfer engine's job
     * paths: the server's job service runs it whole on one node, and keeps its report with the job.
     */
    BENCH
}
