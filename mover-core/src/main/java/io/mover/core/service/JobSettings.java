package io.mover.core.service;

import io.mover.core.engine.JobControls;
import io.mover.core.engine.TransferOptions;

import static java.util.Objects.requireNonNull;

/**
 * A job's live settings, as they are now (they may differ from what was submitted).
 *
 * @param concurrency files (or ranges) allowed in flight
 * @param bandwidthCapBytesPerSecond the cap across the job's workers; 0 for none
 * @param pauseRequested a pause was asked for (the state is PAUSED once work in flight has drained)
 * @param concurrencyOrigin where the concurrency came from: {@value JobControls#SET} (the user's),
 *        {@value JobControls#DEFAULT}, or "chosen by PLUGIN" (an endpoint's suggestion, SPI {@code FilesInFlight})
 */
public record JobSettings(int concurrency, long bandwidthCapBytesPerSecond, boolean pauseRequested, String concurrencyOrigin) {
    public JobSettings {
        requireNonNull(concurrencyOrigin, "concurrencyOrigin is null");
    }

    /** The live settings of running {@code controls}. */
    public static JobSettings of(JobControls controls, boolean pauseRequested) {
        return new JobSettings(controls.concurrency(), controls.bandwidthCap(), pauseRequested, controls.concurrencyOrigin());
    }

    /** The settings a job was submitted with, before any run chose a concurrency. */
    public static JobSettings submitted(TransferOptions options, boolean pauseRequested) {
        return of(JobControls.of(options), pauseRequested);
    }
}
