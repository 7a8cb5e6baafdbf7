package io.mover.cli;

import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;

/**
 * What the CLI does on Ctrl-C (or SIGTERM) while a job runs, installed as a JVM shutdown hook and removed
 * when the command has reported the job's end. The action gets a latch the command counts down once it has
 * printed the job's end, so the hook can let that summary out before the JVM halts.
 */
class ShutdownHook implements AutoCloseable {
    private final Thread hook;
    private final CountDownLatch reported = new CountDownLatch(1);

    ShutdownHook(boolean enabled, String name, Consumer<CountDownLatch> onShutdown) {
        if (!enabled) {
            hook = null;
            return;
        }
        hook = new Thread(() -> onShutdown.accept(reported), name);
        Runtime.getRuntime().addShutdownHook(hook);
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
            // shutdown already under way: the hook is running and finishes what it does
        }
    }
}
