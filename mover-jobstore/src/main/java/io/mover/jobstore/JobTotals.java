package io.mover.jobstore;

/**
 * A job's counters as stored. The file counters only grow in a unit's commit, by the files it recorded
 * first, so they are exact even when units run twice.
 *
 * @param filesScanned files the driver found (after filters)
 * @param bytesScanned their bytes
 * @param filesDone files transferred
 * @param filesSkipped files skipped
 * @param filesFailed files failed
 * @param bytesTransferred bytes of the transferred files
 * @param unitsTotal units cut so far
 * @param unitsDone units committed as done
 * @param retries retries over the recorded files (attempts beyond the first)
 */
public record JobTotals(long filesScanned, long bytesScanned, long filesDone, long filesSkipped, long filesFailed,
        long bytesTransferred, long unitsTotal, long unitsDone, long retries) {
    public static final JobTotals ZERO = new JobTotals(0, 0, 0, 0, 0, 0, 0, 0, 0);
}
