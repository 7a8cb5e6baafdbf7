package io.mover.core.engine;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The files of a run in flight, so that a cancel aborts their writers at once ({@link FileCopy#abortOnCancel()})
 * instead of waiting for blocks stuck in a plugin (a throttled share waiting out a Retry-After). Each abort runs on
 * its own virtual thread: a plugin's abort may make a request, and the canceller (a request handler, a shutdown
 * hook) must not wait for it. The run waits for them before it ends, so no abort outlives the endpoints.
 */
final class CancelAborts {
    private static final Duration MOST = Duration.ofSeconds(30);

    private final Set<FileCopy> files = ConcurrentHashMap.newKeySet();
    private final List<Thread> aborts = new CopyOnWriteArrayList<>();
    private final Runnable forget;

    CancelAborts(CancellationToken cancellation) {
        this.forget = cancellation.onCancel(() -> files.forEach(file -> aborts.add(Thread.ofVirtual().name("mover-abort").start(file::abortOnCancel))));
    }

    void started(FileCopy file) {
        files.add(file);
    }

    void ended(FileCopy file) {
        files.remove(file);
    }

    /** The run has ended: a later cancel has nothing to abort; aborts under way finish (for 30 s at most). */
    void close() {
        forget.run();
        long deadline = System.nanoTime() + MOST.toNanos();
        for (Thread abort : aborts) {
            try {
                abort.join(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
