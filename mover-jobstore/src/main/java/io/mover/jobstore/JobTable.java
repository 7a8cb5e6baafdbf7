package io.mover.jobstore;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.mover.core.engine.JobKind;
import io.mover.core.engine.JobState;
import io.mover.core.service.JobId;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

import static io.mover.jobstore.Jdbc.clip;
import static io.mover.jobstore.Jdbc.setInstant;
import static io.mover.jobstore.Jdbc.update;
import static java.util.Objects.requireNonNull;

/** The job rows of {@link JdbcJobStore}: create, read, list, count, and the updates of a job's state, settings and counters. */
final class JobTable {
    private static final String TERMINAL = "('SUCCEEDED', 'COMPLETED_WITH_ERRORS', 'FAILED', 'CANCELLED')";

    private final Jdbc jdbc;
    private final Clock clock;

    JobTable(Jdbc jdbc, Clock clock) {
        this.jdbc = requireNonNull(jdbc, "jdbc is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    StoredJob create(NewJob job) {
        requireNonNull(job, "job is null");
        return jdbc.inTransaction("create job " + job.id(), connection -> {
            try (PreparedStatement insert = connection.prepareStatement(
                    "insert into job (id, kind, spec_json, desired_state, state, created, schedule_id) values (?, ?, ?, ?, ?, ?, ?)")) {
                insert.setString(1, job.id().value());
                insert.setString(2, job.kind().name());
                insert.setString(3, job.specJson());
                insert.setString(4, DesiredState.RUNNING.name());
                insert.setString(5, JobState.QUEUED.name());
                setInstant(insert, 6, clock.instant());
                insert.setString(7, job.scheduleId().orElse(null));
                insert.executeUpdate();
            }
            return find(connection, job.id()).orElseThrow();
        });
    }

    Optional<StoredJob> get(JobId id) {
        requireNonNull(id, "id is null");
        return jdbc.inTransaction("read job " + id, connection -> find(connection, id));
    }

    List<StoredJob> list(Optional<JobState> state, Optional<JobKind> kind, int offset, int limit) {
        requireNonNull(kind, "kind is null");
        return list(state, kind, Optional.empty(), offset, limit);
    }

    List<StoredJob> listBySchedule(String scheduleId, Optional<JobState> state, int offset, int limit) {
        requireNonNull(scheduleId, "scheduleId is null");
        return list(state, Optional.empty(), Optional.of(scheduleId), offset, limit);
    }

    private List<StoredJob> list(Optional<JobState> state, Optional<JobKind> kind, Optional<String> scheduleId, int offset, int limit) {
        requireNonNull(state, "state is null");
        if (offset < 0 || limit < 0) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "offset and limit must not be negative, got " + offset + " and " + limit);
        }
        List<String> conditions = new ArrayList<>();
        scheduleId.ifPresent(id -> conditions.add("schedule_id = ?"));
        state.ifPresent(wanted -> conditions.add("state = ?"));
        kind.ifPresent(wanted -> conditions.add("kind = ?"));
        String where = conditions.isEmpty() ? "" : " where " + String.join(" and ", conditions);
        String sql = "select " + Rows.JOB_COLUMNS + " from job" + where + " order by created desc, id desc limit ? offset ?";
        return jdbc.inTransaction("list jobs", connection -> {
            try (PreparedStatement select = connection.prepareStatement(sql)) {
                int index = 1;
                if (scheduleId.isPresent()) {
                    select.setString(index++, scheduleId.get());
                }
                if (state.isPresent()) {
                    select.setString(index++, state.get().name());
                }
                if (kind.isPresent()) {
                    select.setString(index++, kind.get().name());
                }
                select.setInt(index++, limit);
                select.setInt(index, offset);
                List<StoredJob> jobs = new ArrayList<>();
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        jobs.add(Rows.job(rows));
                    }
                }
                return jobs;
            }
        });
    }

    boolean setDesiredState(JobId id, DesiredState desired) {
        requireNonNull(desired, "desired is null");
        return setWhileNotEnded(id, "desired_state", desired.name(), "set the desired state of job ");
    }

    boolean updateSpec(JobId id, String specJson) {
        requireNonNull(specJson, "specJson is null");
        return setWhileNotEnded(id, "spec_json", specJson, "update the spec of job ");
    }

    /** Sets one column of a job that has not ended; false when it has, NOT_FOUND when there is no such job. */
    private boolean setWhileNotEnded(JobId id, String column, String value, String what) {
        requireNonNull(id, "id is null");
        return jdbc.inTransaction(what + id, connection -> {
            int updated = update(connection, "update job set " + column + " = ?, version = version + 1 where id = ? and state not in " + TERMINAL,
                    value, id.value());
            if (updated == 0) {
                requireJob(connection, id);
            }
            return updated == 1;
        });
    }

    boolean transition(JobId id, JobState to, Optional<JobError> error) {
        requireNonNull(id, "id is null");
        requireNonNull(to, "to is null");
        requireNonNull(error, "error is null");
        return jdbc.inTransaction("move job " + id + " to " + to, connection -> {
            // lock the row, then decide in Java: the same rules on both databases, no dialect CASE tricks
            StoredJob job = requireJob(connection, id, " for update");
            if (job.state().isTerminal()) {
                return false;
            }
            Instant now = clock.instant();
            Instant started = job.started().orElse(to == JobState.RUNNING ? now : null); // a job cancelled while queued never started
            Instant ended = to.isTerminal() ? now : null;
            try (PreparedStatement update = connection.prepareStatement("update job set state = ?, started = ?, ended = ?, "
                    + "error_code = ?, error_message = ?, version = version + 1 where id = ?")) {
                update.setString(1, to.name());
                setInstant(update, 2, started);
                setInstant(update, 3, ended);
                update.setString(4, error.map(JobError::code).orElse(null));
                update.setString(5, error.map(e -> clip(e.message(), 2000)).orElse(null));
                update.setString(6, id.value());
                update.executeUpdate();
            }
            return true;
        });
    }

    void addScanned(JobId id, long files, long bytes) {
        requireNonNull(id, "id is null");
        jdbc.inTransaction("count scanned files of job " + id, connection -> requireUpdated(connection, id,
                update(connection, "update job set files_scanned = files_scanned + ?, bytes_scanned = bytes_scanned + ?, "
                        + "version = version + 1 where id = ?", files, bytes, id.value())));
    }

    void markEnumerationDone(JobId id) {
        requireNonNull(id, "id is null");
        jdbc.inTransaction("end the enumeration of job " + id, connection -> requireUpdated(connection, id,
                update(connection, "update job set enumeration_done = true, version = version + 1 where id = ?", id.value())));
    }

    void recordSync(JobId id, String syncJson) {
        requireNonNull(syncJson, "syncJson is null");
        jdbc.inTransaction("record the sync report of job " + id, connection -> requireUpdated(connection, id,
                update(connection, "update job set sync_json = ?, version = version + 1 where id = ?", syncJson, id.value())));
    }

    long count(JobState state) {
        requireNonNull(state, "state is null");
        String where = switch (state) {
            case PAUSED -> "state in ('QUEUED', 'RUNNING') and desired_state = 'PAUSED'";
            case QUEUED, RUNNING -> "state = '" + state.name() + "' and desired_state <> 'PAUSED'";
            default -> "state = '" + state.name() + "'";
        };
        return jdbc.inTransaction("count jobs", connection -> {
            try (PreparedStatement select = connection.prepareStatement("select count(*) from job where " + where);
                    ResultSet rows = select.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        });
    }

    private static Optional<StoredJob> find(Connection connection, JobId id) throws SQLException {
        return find(connection, id, "");
    }

    private static Optional<StoredJob> find(Connection connection, JobId id, String suffix) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("select " + Rows.JOB_COLUMNS + " from job where id = ?" + suffix)) {
            select.setString(1, id.value());
            try (ResultSet rows = select.executeQuery()) {
                return rows.next() ? Optional.of(Rows.job(rows)) : Optional.empty();
            }
        }
    }

    private static StoredJob requireJob(Connection connection, JobId id) throws SQLException {
        return requireJob(connection, id, "");
    }

    private static StoredJob requireJob(Connection connection, JobId id, String suffix) throws SQLException {
        return find(connection, id, suffix).orElseThrow(() -> unknown(id));
    }

    static Void requireUpdated(Connection connection, JobId id, int updated) {
        if (updated == 0) {
            throw unknown(id);
        }
        return null;
    }

    static MoverException unknown(JobId id) {
        return new MoverException(ErrorCode.NOT_FOUND, "no job " + id + " in the job store");
    }
}
