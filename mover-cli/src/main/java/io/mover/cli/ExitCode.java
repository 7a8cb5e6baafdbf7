package io.mover.cli;

import io.mover.core.engine.JobSummary;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

/**
 * The documented exit codes of {@code mover} (docs/cli.md). Scripts branch on them, so a code never
 * changes meaning; new outcomes get new numbers. Chosen after rclone's lib/exitcode: small numbers
 * by how the operator reacts, 130 for an interrupt as shells report it.
 */
enum ExitCode {
    /** Everything was transferred or skipped. */
    SUCCESS(0),
    /** Bad option or value, unknown scheme or codec, destination inside the source: fix the command. */
    USAGE(1),
    /** The job ran to its end, but some files failed (listed in the summary). */
    FILES_FAILED(2),
    /** The source (or another named thing) does not exist. */
    NOT_FOUND(3),
    /** The destination cannot take more: out of space, or it failed so that nothing more can succeed. */
    DESTINATION(5),
    /** Any other fatal error: authentication, a plugin failure, a bug. */
    FATAL(7),
    /** Cancelled, by Ctrl-C or otherwise. */
    CANCELLED(130);

    private final int code;

    ExitCode(int code) {
        this.code = code;
    }

    int code() {
        return code;
    }

    static ExitCode of(MoverException error) {
        return of(error.code());
    }

    static ExitCode of(ErrorCode code) {
        return switch (code) {
            case NO_SPACE -> DESTINATION;
            case CANCELLED -> CANCELLED;
            case NOT_FOUND -> NOT_FOUND;
            default -> switch (code.category()) {
                case USER -> USAGE;
                case NOT_FOUND -> NOT_FOUND;
                case RETRYABLE, FATAL -> FATAL;
            };
        };
    }

    /** How a job that ran ended; a failed job by the code of the error that stopped it. */
    static ExitCode of(JobSummary summary) {
        return switch (summary.state()) {
            case SUCCEEDED -> SUCCESS;
            case COMPLETED_WITH_ERRORS -> FILES_FAILED;
            case CANCELLED -> CANCELLED;
            case FAILED -> summary.errorCode().map(ExitCode::of).orElse(FATAL);
            case QUEUED, RUNNING, PAUSED -> FATAL;
        };
    }
}
