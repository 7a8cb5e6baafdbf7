package io.mover.core.engine;

/**
 * The stages every job is measured in. Metrics, progress, errors and logs name them.
 * ENUMERATE and COMPARE plan the job; READ to COMMIT move the bytes of each block or file.
 */
public enum Stage {
    ENUMERATE,
    COMPARE,
    READ,
    ENCODE,
    SEND,
    DECODE,
    WRITE,
    COMMIT;

    /** The stages a byte passes through, in order: the candidates for the bottleneck. */
    public static final java.util.List<Stage> DATA_PATH = java.util.List.of(READ, ENCODE, SEND, DECODE, WRITE, COMMIT);
}
