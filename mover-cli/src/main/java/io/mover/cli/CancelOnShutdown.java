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
final class CancelOnShutdown implements AutoCloseable {
    static final Duration GRACE = Duration.ofSeconds(5);

    /** How long the hook lets the command finish printing the summary of the cancelled job. */
    private static final Duration REPORT_GRACE = Duration.ofSeconds(1);

    private final Thread hook;
    private final CountDownLatch reported;

    private CancelOnShutdown(Thread hook, CountDownLatch reported) {
        this.hook = hook;
        this.reported = reported;
    }

    static CancelOnShutdown install(boolean enabled, JobService service, JobId id, PrintWriter err) {
        requireNonNull(service, "service is null");
        requireNonNull(id, "id is null");
        CountDownLatch reported = new CountDownLatch(1);
        if (!enabled) {
            return new CancelOnShutdown(null, reported);
        }
        Thread hook = new Thread(() -> {
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
        }, "mover-cancel-on-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        return new CancelOnShutdown(hook, reported);
    }

    /** Called once the command has reported the job's end. */
    @Override
    public void close() {
        reported.countDown();
        if (hook == null) {
            return;
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        }
        catch (IllegalStateException e) {
            // shutdown already under way: the hook is running and finishes the cancellation
        }
    }
}
