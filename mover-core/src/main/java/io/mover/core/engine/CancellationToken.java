package io.mover.core.engine;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Asks a running job to stop at the next block boundary, and lets the run abort, at once, the writes it has in
 * flight (a write can wait a long time inside a plugin: a throttled cloud share, a server that went away).
 * Thread-safe.
 */
public final class CancellationToken {
    private static final System.Logger LOG = System.getLogger(CancellationToken.class.getName());

    private final AtomicBoolean cancelled = new AtomicBoolean();
    private final List<Runnable> actions = new CopyOnWriteArrayList<>();

    public void cancel() {
        if (cancelled.compareAndSet(false, true)) {
            actions.forEach(CancellationToken::runQuietly);
        }
    }

    public boolean isCancelled() {
        return cancelled.get();
    }

    /**
     * Runs {@code action} on the cancelling thread when the job is cancelled, or at once if it already is. The
     * action must not block: the canceller may be a request handler or a shutdown hook.
     *
     * @return removes the action (a run that ended)
     */
    Runnable onCancel(Runnable action) {
        actions.add(action);
        if (cancelled.get() && actions.remove(action)) {
            runQuietly(action);
        }
        return () -> actions.remove(action);
    }

    private static void runQuietly(Runnable action) {
        try {
            action.run();
        }
        catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "an action on cancel failed: " + e);
        }
    }
}
