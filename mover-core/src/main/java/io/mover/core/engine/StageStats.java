package io.mover.core.engine;

import java.time.Duration;

import static java.util.Objects.requireNonNull;

/**
 * One stage's figures over a job (or an interval).
 *
 * @param stage the stage
 * @param bytes bytes that passed through it (input bytes for ENCODE, output bytes for DECODE)
 * @param operations calls measured (blocks, files, listings)
 * @param busy time spent inside the stage, summed over all threads
 * @param waiting time spent waiting to enter it (for a buffer, a permit, the link), summed over all threads
 * @param shareOfBusy this stage's busy time over the busy time of all data-path stages, 0 to 1
 */
public record StageStats(Stage stage, long bytes, long operations, Duration busy, Duration waiting, double shareOfBusy) {
    public StageStats {
        requireNonNull(stage, "stage is null");
        requireNonNull(busy, "busy is null");
        requireNonNull(waiting, "waiting is null");
    }

    /** Bytes per second of busy time: how fast one thread gets through this stage. */
    public double bytesPerBusySecond() {
        long nanos = busy.toNanos();
        return nanos == 0 ? 0 : bytes * 1e9 / nanos;
    }
}
