package io.mover.cli;

import java.io.PrintWriter;
import java.time.Duration;

import io.mover.core.service.JobId;
import io.mover.core.service.JobService;

import static java.util.Objects.requireNonNull;

/**
 * On Ctrl-C (or SIGTERM), cancels the running job and waits briefly, so the sink removes its
 * temporaries before the JVM exits; the shell then reports 130. Removed when the job ends normally.
 */
final class CancelOnShutdown implements AutoCloseable {
    static final Duration GRACE = Duration.ofSeconds(5);

    private final Thread hook;

    private CancelOnShutdown(Thread hook) {
        this.hook = hook;
    }

    static CancelOnShutdown install(boolean enabled, JobService service, JobId id, PrintWriter err) {
        requireNonNull(service, "service is null");
        requireNonNull(id, "id is null");
        if (!enabled) {
            return new CancelOnShutdown(null);
        }
        Thread hook = new Thread(() -> {
            err.println("mover: cancelling; removing temporaries (at most " + GRACE.toSeconds() + " s)");
            err.flush();
            try {
                service.cancel(id);
                service.await(id, GRACE);
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
        return new CancelOnShutdown(hook);
    }

    @Override
    public void close() {
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
