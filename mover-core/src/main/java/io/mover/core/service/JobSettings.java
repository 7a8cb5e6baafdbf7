package io.mover.core.service;

/**
 * A job's live settings, as they are now (they may differ from what was submitted).
 *
 * @param concurrency files (or ranges) allowed in flight
 * @param bandwidthCapBytesPerSecond the cap across the job's workers; 0 for none
 * @param pauseRequested a pause was asked for (the state is PAUSED once work in flight has drained)
 */
public record JobSettings(int concurrency, long bandwidthCapBytesPerSecond, boolean pauseRequested) {}
