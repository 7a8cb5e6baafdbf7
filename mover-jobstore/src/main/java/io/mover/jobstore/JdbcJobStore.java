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
import java.util.OptionalLong;
import java.util.stream.Stream;

import javax.sql.DataSource;

import io.mover.core.engine.JobKind;
import io.mover.core.engine.JobPhase;
import io.mover.core.engine.JobState;
import io.mover.core.service.JobId;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

import static io.mover.jobstore.Jdbc.clip;
import static io.mover.jobstore.Jdbc.setInstant;
import static java.util.Objects.requireNonNull;

/**
 * The job store on JDBC: the job and node rows here, unit commits in {@link UnitTable}, their reads in {@link UnitReads}, a bench's
 * phase and report in {@link JobReports}, plugin counters in {@link PluginCounterRows}.
 * Portable SQL only (PostgreSQL, and H2 in PostgreSQL mode); the schema is Flyway's V1.
 */
public final class JdbcJobStore implements JobStore {
    /** Paths per query of {@link #recordedPaths}: large enough to stream fast, small enough to hold. */
    static final int RECORDED_PATHS_PAGE = 10_000;
    private static final String TERMINAL = "('SUCCEEDED', 'COMPLETED_WITH_ERRORS', 'FAILED', 'CANCELLED')";

    private final Jdbc jdbc;
    private final Clock clock;
    private final UnitTable units;
    private final UnitReads reads;
    private final JobReports reports;
    private final PluginCounterRows pluginCounters;

    /** A store on a migrated database (see {@link JobStores#open}). */
    public JdbcJobStore(DataSource dataSource, Clock clock) {
        this(dataSource, clock, RECORDED_PATHS_PAGE);
    }

    JdbcJobStore(DataSource dataSource, Clock clock, int recordedPathsPage) {
        this.jdbc = new Jdbc(requireNonNull(dataSource, "dataSource is null"));
        this.clock = requireNonNull(clock, "clock is null");
        this.units = new UnitTable(jdbc, clock);
        this.reads = new UnitReads(jdbc, recordedPathsPage);
        this.reports = new JobReports(jdbc);
        this.pluginCounters = new PluginCounterRows(jdbc);
    }

    @Override
    public StoredJob create(NewJob job) {
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

    @Override
    public Optional<StoredJob> get(JobId id) {
        requireNonNull(id, "id is null");
        return jdbc.inTransaction("read job " + id, connection -> find(connection, id));
    }

    @Override
    public List<StoredJob> list(Optional<JobState> state, Optional<JobKind> kind, int offset, int limit) {
        requireNonNull(kind, "kind is null");
        return list(state, kind, Optional.empty(), offset, limit);
    }

    @Override
    public List<StoredJob> listBySchedule(String scheduleId, Optional<JobState> state, int offset, int limit) {
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

    @Override
    public boolean setDesiredState(JobId id, DesiredState desired) {
        requireNonNull(desired, "desired is null");
        return setWhileNotEnded(id, "desired_state", desired.name(), "set the desired state of job ");
    }

    @Override
    public boolean updateSpec(JobId id, String specJson) {
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

    @Override
    public boolean transition(JobId id, JobState to, Optional<JobError> error) {
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

    @Override
    public void addScanned(JobId id, long files, long bytes) {
        requireNonNull(id, "id is null");
        jdbc.inTransaction("count scanned files of job " + id, connection -> requireUpdated(connection, id,
                update(connection, "update job set files_scanned = files_scanned + ?, bytes_scanned = bytes_scanned + ?, "
                        + "version = version + 1 where id = ?", files, bytes, id.value())));
    }

    @Override
    public void markEnumerationDone(JobId id) {
        requireNonNull(id, "id is null");
        jdbc.inTransaction("end the enumeration of job " + id, connection -> requireUpdated(connection, id,
                update(connection, "update job set enumeration_done = true, version = version + 1 where id = ?", id.value())));
    }

    @Override
    public void recordSync(JobId id, String syncJson) {
        requireNonNull(syncJson, "syncJson is null");
        jdbc.inTransaction("record the sync report of job " + id, connection -> requireUpdated(connection, id,
                update(connection, "update job set sync_json = ?, version = version + 1 where id = ?", syncJson, id.value())));
    }

    @Override
    public void recordPhase(JobId id, JobPhase phase) {
        reports.recordPhase(id, phase);
    }

    @Override
    public void recordReport(JobId id, String reportJson) {
        reports.recordReport(id, reportJson);
    }

    @Override
    public Optional<String> report(JobId id) {
        return reports.report(id);
    }

    @Override
    public void addPluginCounters(JobId id, java.util.Map<String, Long> counters) {
        pluginCounters.add(id, counters);
    }

    @Override
    public java.util.Map<String, Long> pluginCounters(JobId id) {
        return pluginCounters.read(id);
    }

    @Override
    public int addUnits(JobId id, List<NewUnit> newUnits) {
        return units.add(id, newUnits);
    }

    @Override
    public OptionalLong beginAttempt(JobId id, long seq, String nodeId) {
        return units.beginAttempt(id, seq, nodeId);
    }

    @Override
    public boolean heartbeat(JobId id, long seq, long epoch) {
        return units.heartbeat(id, seq, epoch);
    }

    @Override
    public boolean commitUnit(JobId id, long seq, long epoch, List<FileResult> results, StageDelta... stages) {
        return units.commit(id, seq, epoch, results, List.of(stages), true);
    }

    @Override
    public boolean checkpoint(JobId id, long seq, long epoch, List<FileResult> results, StageDelta... stages) {
        return units.commit(id, seq, epoch, results, List.of(stages), false);
    }

    @Override
    public Stream<String> recordedPaths(JobId id) {
        return reads.recordedPaths(id);
    }

    @Override
    public List<RecordedFile> files(JobId id, Optional<FileOutcome> outcome, Optional<String> afterPath, int limit) {
        return reads.files(id, outcome, afterPath, limit);
    }

    @Override
    public List<UnitInfo> unfinishedUnits(JobId id) {
        return reads.unfinished(id);
    }

    @Override
    public Optional<byte[]> manifest(JobId id, long seq) {
        return reads.manifest(id, seq);
    }

    @Override
    public long count(JobState state) {
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

    @Override
    public UnitCounts unitCounts(Optional<JobId> id) {
        return reads.counts(id);
    }

    @Override
    public List<NodeStageStats> stageStats(JobId id) {
        return reads.stageStats(id);
    }

    @Override
    public void registerNode(String nodeId, String host) {
        requireNonNull(nodeId, "nodeId is null");
        requireNonNull(host, "host is null");
        Instant now = clock.instant();
        jdbc.inTransaction("register node " + nodeId, connection -> {
            // update, else insert: the node row is only ever written by its own node, so no race to merge
            if (update(connection, "update node set host = ?, started = ?, heartbeat = ? where id = ?", host, now, now, nodeId) == 0) {
                update(connection, "insert into node (id, host, started, heartbeat) values (?, ?, ?, ?)", nodeId, host, now, now);
            }
            return null;
        });
    }

    @Override
    public void nodeHeartbeat(String nodeId) {
        requireNonNull(nodeId, "nodeId is null");
        jdbc.inTransaction("refresh the heartbeat of node " + nodeId,
                connection -> update(connection, "update node set heartbeat = ? where id = ?", clock.instant(), nodeId));
    }

    @Override
    public List<NodeInfo> nodes() {
        return jdbc.inTransaction("list nodes", connection -> {
            List<NodeInfo> nodes = new ArrayList<>();
            try (PreparedStatement select = connection.prepareStatement("select id, host, started, heartbeat from node order by id");
                    ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    nodes.add(Rows.node(rows));
                }
            }
            return nodes;
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

    /** Binds Strings, Longs and Instants in order and runs the update. */
    static int update(Connection connection, String sql, Object... values) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < values.length; i++) {
                switch (values[i]) {
                    case Instant instant -> setInstant(statement, i + 1, instant);
                    case Long number -> statement.setLong(i + 1, number);
                    case Integer number -> statement.setInt(i + 1, number);
                    case String text -> statement.setString(i + 1, text);
                    default -> throw new IllegalArgumentException("unsupported parameter " + values[i].getClass());
                }
            }
            return statement.executeUpdate();
        }
    }
}
