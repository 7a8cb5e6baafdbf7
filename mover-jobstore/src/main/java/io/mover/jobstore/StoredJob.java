package io.mover.jobstore;

import java.time.Instant;
import java.util.Optional;

import io.mover.core.engine.JobKind;
import io.mover.core.engine.JobPhase;
import io.mover.core.engine.JobState;
import io.mover.core.service.JobId;

import static java.util.Objects.requireNonNull;

/**
 * A job as the store holds it.
 *
 * @param id its id
 * @param kind what it does
 * @param specJson the spec as given at creation (no secrets)
 * @param desiredState what the user asked for
 * @param state what the job is
 * @param created when it was created
 * @param started when it first ran
 * @param ended when it reached a terminal state
 * @param totals its counters
 * @param enumerationDone whether the driver has cut its last unit
 * @param error why it failed, when it did
 * @param version incremented on every change of the row
 * @param syncJson a sync job's report once its driver has planned it (SyncReport as JSON)
 * @param phase what a job that runs in steps (a bench) is doing, once it has said
 * @param codec what carries its blocks and why, as one of its units recorded it last ({@link JobStore#recordCodec})
 */
public record StoredJob(JobId id, JobKind kind, String specJson, DesiredState desiredState, JobState state, Instant created,
        Optional<Instant> started, Optional<Instant> ended, JobTotals totals, boolean enumerationDone, Optional<JobError> error,
        long version, Optional<String> syncJson, Optional<JobPhase> phase, Optional<String> codec) {
    public StoredJob {
        requireNonNull(id, "id is null");
        requireNonNull(kind, "kind is null");
        requireNonNull(specJson, "specJson is null");
        requireNonNull(desiredState, "desiredState is null");
        requireNonNull(state, "state is null");
        requireNonNull(created, "created is null");
        requireNonNull(started, "started is null");
        requireNonNull(ended, "ended is null");
        requireNonNull(totals, "totals is null");
        requireNonNull(error, "error is null");
        requireNonNull(syncJson, "syncJson is null");
        requireNonNull(phase, "phase is null");
        requireNonNull(codec, "codec is null");
    }
}
