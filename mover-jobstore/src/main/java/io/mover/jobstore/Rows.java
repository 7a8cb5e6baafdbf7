package io.mover.jobstore;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

import io.mover.core.engine.JobKind;
import io.mover.core.engine.JobPhase;
import io.mover.core.engine.JobState;
import io.mover.core.engine.Stage;
import io.mover.core.service.JobId;

import static io.mover.jobstore.Jdbc.instant;
import static io.mover.jobstore.Jdbc.optionalInstant;
import static io.mover.jobstore.Jdbc.optionalString;

/** Rows to records. */
final class Rows {
    static final String JOB_COLUMNS = "id, kind, spec_json, desired_state, state, created, started, ended, files_scanned, "
            + "bytes_scanned, files_done, files_skipped, files_failed, bytes_transferred, units_total, units_done, retries, "
            + "enumeration_done, error_code, error_message, version, sync_json, phase, phase_step, phase_steps, codec_report";
    static final String UNIT_COLUMNS = "job_id, seq, state, epoch, owner, heartbeat, file_count, byte_count, created";
    static final String FILE_COLUMNS = "path, unit_seq, outcome, bytes, attempts, error_code, message, recorded_at";

    private Rows() {
    }

    static StoredJob job(ResultSet rows) throws SQLException {
        JobTotals totals = new JobTotals(rows.getLong("files_scanned"), rows.getLong("bytes_scanned"), rows.getLong("files_done"),
                rows.getLong("files_skipped"), rows.getLong("files_failed"), rows.getLong("bytes_transferred"),
                rows.getLong("units_total"), rows.getLong("units_done"), rows.getLong("retries"));
        String errorCode = rows.getString("error_code");
        String phase = rows.getString("phase");
        Optional<JobError> error = errorCode == null ? Optional.empty()
                : Optional.of(new JobError(errorCode, Optional.ofNullable(rows.getString("error_message")).orElse("")));
        return new StoredJob(JobId.of(rows.getString("id")), JobKind.valueOf(rows.getString("kind")), rows.getString("spec_json"),
                DesiredState.valueOf(rows.getString("desired_state")), JobState.valueOf(rows.getString("state")),
                instant(rows, "created"), optionalInstant(rows, "started"), optionalInstant(rows, "ended"), totals,
                rows.getBoolean("enumeration_done"), error, rows.getLong("version"), optionalString(rows, "sync_json"),
                phase == null ? Optional.empty() : Optional.of(new JobPhase(phase, rows.getInt("phase_step"), rows.getInt("phase_steps"))),
                optionalString(rows, "codec_report"));
    }

    static UnitInfo unit(ResultSet rows) throws SQLException {
        return new UnitInfo(JobId.of(rows.getString("job_id")), rows.getLong("seq"), UnitState.valueOf(rows.getString("state")),
                rows.getLong("epoch"), optionalString(rows, "owner"), optionalInstant(rows, "heartbeat"), rows.getLong("file_count"),
                rows.getLong("byte_count"), instant(rows, "created"));
    }

    static RecordedFile file(ResultSet rows) throws SQLException {
        FileResult result = new FileResult(rows.getString("path"), FileOutcome.valueOf(rows.getString("outcome")), rows.getLong("bytes"),
                rows.getInt("attempts"), optionalString(rows, "error_code"), optionalString(rows, "message"));
        return new RecordedFile(result, rows.getLong("unit_seq"), instant(rows, "recorded_at"));
    }

    static NodeStageStats stage(ResultSet rows) throws SQLException {
        return new NodeStageStats(rows.getString("node_id"), Stage.valueOf(rows.getString("stage")), rows.getLong("bytes"),
                rows.getLong("busy_nanos"), rows.getLong("wait_nanos"), rows.getLong("ops"));
    }

    static NodeInfo node(ResultSet rows) throws SQLException {
        return new NodeInfo(rows.getString("id"), rows.getString("host"), instant(rows, "started"), instant(rows, "heartbeat"));
    }
}
