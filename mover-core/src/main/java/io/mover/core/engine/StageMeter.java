package io.mover.core.engine;

import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;

/**
 * Bytes, operations, busy time and wait time of one stage, summed over all threads. Lock-free: every
 * block of every file passes through it.
 */
public final class StageMeter {
    private final LongAdder bytes = new LongAdder();
    private final LongAdder operations = new LongAdder();
    private final LongAdder busyNanos = new LongAdder();
    private final LongAdder waitNanos = new LongAdder();

    /** Records one operation that started at {@code startNanos} ({@link System#nanoTime()}) and moved {@code byteCount}. */
    public void busy(long startNanos, long byteCount) {
        busyNanos.add(System.nanoTime() - startNanos);
        bytes.add(byteCount);
        operations.increment();
    }

    /** Records time spent waiting to enter the stage (for a buffer, a permit, the link). */
    public void waited(long startNanos) {
        waitNanos.add(System.nanoTime() - startNanos);
    }

    Snapshot snapshot() {
        return new Snapshot(bytes.sum(), operations.sum(), busyNanos.sum(), waitNanos.sum());
    }

    record Snapshot(long bytes, long operations, long busyNanos, long waitNanos) {
        StageStats toStats(Stage stage, long totalBusyNanos) {
            double share = totalBusyNanos == 0 ? 0 : (double) busyNanos / totalBusyNanos;
            return new StageStats(stage, bytes, operations, Duration.ofNanos(busyNanos), Duration.ofNanos(waitNanos),
                    Stage.DATA_PATH.contains(stage) ? share : 0);
        }
    }
}
