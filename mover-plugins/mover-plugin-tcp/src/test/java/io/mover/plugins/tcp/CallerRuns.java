package io.mover.plugins.tcp;

import java.time.Duration;
import java.util.List;

import io.netty.channel.embedded.EmbeddedChannel;

/** An executor service that runs each task at once on the submitting thread: a receiver driven on an EmbeddedChannel, whose loop is not thread-safe, gets its workers' replies on the test's thread. */
final class CallerRuns extends java.util.concurrent.AbstractExecutorService {
    private volatile boolean shutdown;

    @Override
    public void execute(Runnable task) {
        task.run();
    }

    @Override
    public void shutdown() {
        shutdown = true;
    }

    @Override
    public List<Runnable> shutdownNow() {
        shutdown = true;
        return List.of();
    }

    @Override
    public boolean isShutdown() {
        return shutdown;
    }

    @Override
    public boolean isTerminated() {
        return shutdown;
    }

    @Override
    public boolean awaitTermination(long timeout, java.util.concurrent.TimeUnit unit) {
        return true;
    }

    /** The next outbound message, running the loop's tasks (replies come back from worker threads) for at most 5 s. */
    static Message next(EmbeddedChannel channel, List<String> log) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (System.nanoTime() < deadline) {
            channel.runPendingTasks();
            Object out = channel.readOutbound();
            if (out != null) {
                return (Message) out;
            }
            Thread.sleep(5);
        }
        throw new AssertionError("no reply within 5 s; log: " + log);
    }
}
