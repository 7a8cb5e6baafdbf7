package io.mover.jobstore;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Optional;

import io.mover.core.engine.JobPhase;
import io.mover.core.service.JobId;

import static io.mover.jobstore.Jdbc.clip;
import static java.util.Objects.requireNonNull;

/**
 * What a job that runs in steps (a bench) says as it goes, and its report (migration V1_6); and what carries a job's
 * blocks (migration V1_8, read with the job's row as {@link StoredJob#codec}): for {@link JdbcJobStore}.
 */
final class JobReports {
    private final Jdbc jdbc;

    JobReports(Jdbc jdbc) {
        this.jdbc = requireNonNull(jdbc, "jdbc is null");
    }

    void recordPhase(JobId id, JobPhase phase) {
        requireNonNull(id, "id is null");
        requireNonNull(phase, "phase is null");
        jdbc.inTransaction("record the phase of job " + id, connection -> JobTable.requireUpdated(connection, id,
                Jdbc.update(connection, "update job set phase = ?, phase_step = ?, phase_steps = ?, version = version + 1 where id = ?",
                        clip(phase.description(), 500), phase.step(), phase.steps(), id.value())));
    }

    void recordReport(JobId id, String reportJson) {
        requireNonNull(id, "id is null");
        requireNonNull(reportJson, "reportJson is null");
        jdbc.inTransaction("record the report of job " + id, connection -> JobTable.requireUpdated(connection, id,
                Jdbc.update(connection, "update job set report_json = ?, version = version + 1 where id = ?", reportJson, id.value())));
    }

    void recordCodec(JobId id, String description) {
        requireNonNull(id, "id is null");
        requireNonNull(description, "description is null");
        jdbc.inTransaction("record the codec of job " + id, connection -> JobTable.requireUpdated(connection, id,
                Jdbc.update(connection, "update job set codec_report = ? where id = ?", clip(description, 2000), id.value())));
    }

    Optional<String> report(JobId id) {
        requireNonNull(id, "id is null");
        return jdbc.inTransaction("read the report of job " + id, connection -> {
            try (PreparedStatement select = connection.prepareStatement("select report_json from job where id = ?")) {
                select.setString(1, id.value());
                try (ResultSet rows = select.executeQuery()) {
                    if (!rows.next()) {
                        throw JobTable.unknown(id);
                    }
                    return Optional.ofNullable(rows.getString(1));
                }
            }
        });
    }
}
