package io.mover.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.mover.core.service.JobId;
import io.mover.core.service.JobService;

import static java.util.Objects.requireNonNull;

/**
 * On Ctrl-C (or SIGTERM), cancels the running job and waits briefly, so the sink removes its
 * temporaries before the JVM exits; the shell then reports 130. Removed when the job ends normally.
 */
final class CancelOnShutdown extends ShutdownHook {
    /**
     * How long Ctrl-C waits for the cancelled job to end (and, against a server, for its summary). Short, because
     * the user asked to stop; {@code -Dmover.interrupt-grace=SECONDS} in MOVER_JAVA_OPTS lengthens it where a loaded
     * machine needs more (the process tests do).
     */
    static final Duration GRACE = Duration.ofSeconds(Long.getLong("mover.interrupt-grace", 5));

    /** How long the hook lets the command finish printing the summary of the cancelled job. */
    private static final Duration REPORT_GRACE = Duration.ofSeconds(1);

    private CancelOnShutdown(boolean enabled, JobService service, JobId id, PrintWriter err) {
        super(enabled, "mover-cancel-on-shutdown", reported -> cancel(service, id, err, reported));
    }

    static CancelOnShutdown install(boolean enabled, JobService service, JobId id, PrintWriter err) {
        requireNonNull(service, "service is null");
        requireNonNull(id, "id is null");
        return new CancelOnShutdown(enabled, service, id, err);
    }

    private static void cancel(JobService service, JobId id, PrintWriter err, CountDownLatch reported) {
        err.println("mover: cancelling; removing temporaries (at most " + GRACE.toSeconds() + " s)");
        err.flush();
        try {
            service.cancel(id);
            service.await(id, GRACE);
            // the JVM halts when the hooks return: let the command print the cancelled job's summary first
            reported.await(REPORT_GRACE.toMillis(), TimeUnit.MILLISECONDS);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        catch (RuntimeException e) {
            // the JVM is going down either way; the next run removes what is left
            err.println("mover: cancelling failed: " + e.getMessage());
            err.flush();
        }
    }
}
