package io.mover.jobstore;

import static java.util.Objects.requireNonNull;

/**
 * A work unit as the driver cuts it.
 *
 * @param seq its number within the job, from 0; the driver's cursor (re-adding a seq changes nothing)
 * @param fileCount files in it
 * @param byteCount their bytes
 * @param manifest its file list, encoded by the caller (the store never reads it)
 */
public record NewUnit(long seq, long fileCount, long byteCount, byte[] manifest) {
    public NewUnit {
        requireNonNull(manifest, "manifest is null");
    }
}
