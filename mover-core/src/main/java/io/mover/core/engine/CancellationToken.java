package io.mover.core.engine;

/** Asks a running job to stop at the next block boundary. Thread-safe. */
public final class CancellationToken {
    private volatile boolean cancelled;

    public void cancel() {
        cancelled = true;
    }

    public boolean isCancelled() {
        return cancelled;
    }
}
