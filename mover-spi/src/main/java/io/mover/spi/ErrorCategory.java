package io.mover.spi;

/**
 * How the engine, the REST API and the CLI treat an error. The category, not the exception's class,
 * drives retries, the problem status and the exit code.
 */
public enum ErrorCategory {
    /** Bad input from the user: an option, a path, a configuration. Never retried; fails before work starts where it can. */
    USER,
    /** The thing named does not exist. Fails that one file (or the job, for the root of a source). Not retried. */
    NOT_FOUND,
    /** Transient: a dropped connection, a timeout, throttling, a checksum mismatch. Retried with backoff, a bounded number of times. */
    RETRYABLE,
    /** Nothing more can succeed in this job: the destination is full, credentials were revoked, a bug. Stops the job. */
    FATAL
}
