package io.mover.cli;

import java.io.PrintWriter;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Ctrl-C (or SIGTERM) while following a job on a server: the job is the server's, so by default the
 * CLI only detaches and says how to stop it. With {@code --cancel-on-interrupt} it asks the server to
 * cancel and waits briefly for the stream to deliver the cancelled job's summary.
 */
final class DetachOnShutdown implements AutoCloseable {
    private final Thread hook;
    private final CountDownLatch reported;

    private DetachOnShutdown(Thread hook, CountDownLatch reported) {
        this.hook = hook;
        this.reported = reported;
    }

    static DetachOnShutdown install(boolean enabled, boolean cancel, ServerClient client, String id, PrintWriter err) {
        CountDownLatch reported = new CountDownLatch(1);
        if (!enabled) {
            return new DetachOnShutdown(null, reported);
        }
        Thread hook = new Thread(() -> {
            if (!cancel) {
                err.println("mover: job " + id + " keeps running on " + client.base() + "; mover jobs cancel " + id + " to stop it");
                err.flush();
                return;
            }
            err.println("mover: cancelling job " + id + " on " + client.base());
            err.flush();
            try {
                client.act(id, "cancel");
                // the follower prints the cancelled job's summary when the server reports its end
                reported.await(CancelOnShutdown.GRACE.toMillis(), TimeUnit.MILLISECONDS);
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            catch (RuntimeException e) {
                err.println("mover: cancelling failed: " + e.getMessage() + "; mover jobs cancel " + id + " stops it");
                err.flush();
            }
        }, "mover-detach-on-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        return new DetachOnShutdown(hook, reported);
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
            // shutdown already under way: the hook runs to its end
        }
    }
}
