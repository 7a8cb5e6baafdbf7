package io.mover.core.service;

import java.util.Optional;

import io.mover.core.engine.JobControls;

import static java.util.Objects.requireNonNull;

/**
 * A live change to a running (or queued) job; an empty field leaves that setting as it is.
 *
 * @param concurrency files (or ranges of large files) in flight, 1 to 1024; shrinking lets running files finish
 * @param bandwidthCapBytesPerSecond bytes per second across the job's workers; 0 lifts the cap
 */
public record JobUpdate(Optional<Integer> concurrency, Optional<Long> bandwidthCapBytesPerSecond) {
    public JobUpdate {
        requireNonNull(concurrency, "concurrency is null");
        requireNonNull(bandwidthCapBytesPerSecond, "bandwidthCapBytesPerSecond is null");
    }

    public static JobUpdate concurrency(int value) {
        return new JobUpdate(Optional.of(value), Optional.empty());
    }

    public static JobUpdate bandwidthCap(long bytesPerSecond) {
        return new JobUpdate(Optional.empty(), Optional.of(bytesPerSecond));
    }

    /** Checks every field before any applies, so a bad one changes nothing; throws the engine's INVALID_ARGUMENT. */
    public void check() {
        concurrency.ifPresent(JobControls::checkConcurrency);
        bandwidthCapBytesPerSecond.ifPresent(JobControls::checkBandwidthCap);
    }

    /** Turns the knobs of a job's controls; call {@link #check()} first. */
    public void applyTo(JobControls controls) {
        concurrency.ifPresent(controls::concurrency);
        bandwidthCapBytesPerSecond.ifPresent(controls::bandwidthCap);
    }
}
