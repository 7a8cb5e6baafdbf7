package io.mover.cli;

import java.io.PrintWriter;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Ctrl-C (or SIGTERM) while following a job on a server: the job is the server's, so by default the
 * CLI only detaches and says how to stop it. With {@code --cancel-on-interrupt} it asks the server to
 * cancel and waits briefly for the stream to deliver the cancelled job's summary.
 */
final class DetachOnShutdown extends ShutdownHook {
    private DetachOnShutdown(boolean enabled, boolean cancel, ServerClient client, String id, PrintWriter err) {
        super(enabled, "mover-detach-on-shutdown", reported -> detach(cancel, client, id, err, reported));
    }

    static DetachOnShutdown install(boolean enabled, boolean cancel, ServerClient client, String id, PrintWriter err) {
        return new DetachOnShutdown(enabled, cancel, client, id, err);
    }

    private static void detach(boolean cancel, ServerClient client, String id, PrintWriter err, CountDownLatch reported) {
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
    }
}
