package io.mover.jobstore;

import java.time.Instant;
import java.util.Optional;

import io.mover.core.service.JobId;

import static java.util.Objects.requireNonNull;

/**
 * A work unit without its manifest (see {@link JobStore#manifest}).
 *
 * @param jobId its job
 * @param seq its number within the job
 * @param state where it is
 * @param epoch its lease epoch: the number of attempts begun
 * @param owner the node of the latest attempt
 * @param heartbeat the latest heartbeat of that attempt
 * @param fileCount files in it
 * @param byteCount their bytes
 * @param created when the driver cut it
 */
public record UnitInfo(JobId jobId, long seq, UnitState state, long epoch, Optional<String> owner, Optional<Instant> heartbeat,
        long fileCount, long byteCount, Instant created) {
    public UnitInfo {
        requireNonNull(jobId, "jobId is null");
        requireNonNull(state, "state is null");
        requireNonNull(owner, "owner is null");
        requireNonNull(heartbeat, "heartbeat is null");
        requireNonNull(created, "created is null");
    }
}
