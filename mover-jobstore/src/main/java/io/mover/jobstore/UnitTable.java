package io.mover.jobstore;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Stream;

import io.mover.core.service.JobId;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

import static io.mover.jobstore.Jdbc.clip;
import static io.mover.jobstore.Jdbc.setInstant;
import static io.mover.jobstore.JdbcJobStore.update;
import static java.util.Objects.requireNonNull;

/** Work units, their commits and the file results: the exactly-once part of {@link JdbcJobStore}. */
final class UnitTable {
    // ON CONFLICT DO NOTHING is PostgreSQL's, and H2 accepts it in PostgreSQL mode: one portable insert-if-absent,
    // whose per-row update count (1 inserted, 0 already there) says which files this commit recorded first
    private static final String INSERT_FILE = "insert into file_result (job_id, path, unit_seq, outcome, bytes, attempts, error_code, "
            + "message, recorded_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict do nothing";
    private static final String INSERT_UNIT = "insert into work_unit (job_id, seq, state, epoch, file_count, byte_count, manifest, created) "
            + "values (?, ?, 'PENDING', 0, ?, ?, ?, ?) on conflict do nothing";

    private final Jdbc jdbc;
    private final Clock clock;
    private final int pageSize;

    UnitTable(Jdbc jdbc, Clock clock, int pageSize) {
        this.jdbc = requireNonNull(jdbc, "jdbc is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.pageSize = pageSize;
    }

    int add(JobId id, List<NewUnit> units) {
        requireNonNull(id, "id is null");
        requireNonNull(units, "units is null");
        if (units.isEmpty()) {
            return 0;
        }
        return jdbc.inTransaction("add units to job " + id, connection -> {
            int added = 0;
            try (PreparedStatement insert = connection.prepareStatement(INSERT_UNIT)) {
                Instant now = clock.instant();
                for (NewUnit unit : units) {
                    insert.setString(1, id.value());
                    insert.setLong(2, unit.seq());
                    insert.setLong(3, unit.fileCount());
                    insert.setLong(4, unit.byteCount());
                    insert.setBytes(5, unit.manifest());
                    setInstant(insert, 6, now);
                    insert.addBatch();
                }
                for (int count : rowCounts(insert.executeBatch())) {
                    added += count;
                }
            }
            if (update(connection, "update job set units_total = units_total + ?, version = version + 1 where id = ?", (long) added, id.value()) == 0) {
                throw JdbcJobStore.unknown(id);
            }
            return added;
        });
    }

    OptionalLong beginAttempt(JobId id, long seq, String nodeId) {
        requireNonNull(id, "id is null");
        requireNonNull(nodeId, "nodeId is null");
        return jdbc.inTransaction("begin unit " + seq + " of job " + id, connection -> {
            // the update locks the row, so the epoch read next is ours until commit
            int updated = update(connection, "update work_unit set epoch = epoch + 1, state = 'RUNNING', owner = ?, heartbeat = ? "
                    + "where job_id = ? and seq = ? and state <> 'DONE'", nodeId, clock.instant(), id.value(), seq);
            if (updated == 0) {
                return OptionalLong.empty();
            }
            return OptionalLong.of(lockUnit(connection, id, seq).epoch());
        });
    }

    boolean heartbeat(JobId id, long seq, long epoch) {
        requireNonNull(id, "id is null");
        return jdbc.inTransaction("refresh the heartbeat of unit " + seq + " of job " + id, connection -> update(connection,
                "update work_unit set heartbeat = ? where job_id = ? and seq = ? and epoch = ? and state = 'RUNNING'",
                clock.instant(), id.value(), seq, epoch) == 1);
    }

    boolean commit(JobId id, long seq, long epoch, List<FileResult> results, List<StageDelta> stages, boolean done) {
        requireNonNull(id, "id is null");
        requireNonNull(results, "results is null");
        requireNonNull(stages, "stages is null");
        return jdbc.inTransactionIf("commit unit " + seq + " of job " + id, connection -> {
            UnitLock unit = lockUnit(connection, id, seq);
            if (unit.epoch() != epoch) {
                return false; // a newer attempt holds the unit: this holder's results are not ours to record
            }
            Counts counts = recordFiles(connection, id, seq, results);
            long unitsDone = done && !unit.done() ? 1 : 0;
            if (unitsDone == 1) {
                update(connection, "update work_unit set state = 'DONE', heartbeat = ? where job_id = ? and seq = ?", clock.instant(), id.value(), seq);
            }
            update(connection, "update job set files_done = files_done + ?, files_skipped = files_skipped + ?, files_failed = files_failed + ?, "
                    + "bytes_transferred = bytes_transferred + ?, retries = retries + ?, units_done = units_done + ?, version = version + 1 "
                    + "where id = ?", counts.transferred, counts.skipped, counts.failed, counts.bytes, counts.retries, unitsDone, id.value());
            for (StageDelta stage : stages) {
                addStage(connection, id, unit.owner(), stage);
            }
            return true;
        });
    }

    private Counts recordFiles(Connection connection, JobId id, long seq, List<FileResult> results) throws SQLException {
        Counts counts = new Counts();
        if (results.isEmpty()) {
            return counts;
        }
        try (PreparedStatement insert = connection.prepareStatement(INSERT_FILE)) {
            Instant now = clock.instant();
            for (FileResult result : results) {
                insert.setString(1, id.value());
                insert.setString(2, result.path());
                insert.setLong(3, seq);
                insert.setString(4, result.outcome().name());
                insert.setLong(5, result.bytes());
                insert.setInt(6, result.attempts());
                insert.setString(7, result.errorCode().orElse(null));
                insert.setString(8, result.message().map(m -> clip(m, 2000)).orElse(null));
                setInstant(insert, 9, now);
                insert.addBatch();
            }
            int[] inserted = rowCounts(insert.executeBatch());
            for (int i = 0; i < inserted.length; i++) {
                if (inserted[i] == 1) {
                    counts.add(results.get(i));
                }
            }
        }
        return counts;
    }

    private static void addStage(Connection connection, JobId id, String nodeId, StageDelta stage) throws SQLException {
        // update, else insert: safe without a merge because the job row, locked by the counter update above,
        // serialises every commit of this job
        Object[] key = {id.value(), nodeId, stage.stage().name()};
        int updated = update(connection, "update stage_stats set bytes = bytes + ?, busy_nanos = busy_nanos + ?, wait_nanos = wait_nanos + ?, "
                + "ops = ops + ? where job_id = ? and node_id = ? and stage = ?", stage.bytes(), stage.busyNanos(), stage.waitNanos(), stage.ops(),
                key[0], key[1], key[2]);
        if (updated == 0) {
            update(connection, "insert into stage_stats (job_id, node_id, stage, bytes, busy_nanos, wait_nanos, ops) values (?, ?, ?, ?, ?, ?, ?)",
                    key[0], key[1], key[2], stage.bytes(), stage.busyNanos(), stage.waitNanos(), stage.ops());
        }
    }

    Stream<String> recordedPaths(JobId id) {
        requireNonNull(id, "id is null");
        // keyset pages: no connection or cursor is held between pages, so a slow consumer blocks nobody
        return Stream.iterate(pathsAfter(id, null), page -> !page.isEmpty(),
                page -> page.size() < pageSize ? List.of() : pathsAfter(id, page.getLast())).flatMap(List::stream);
    }

    private List<String> pathsAfter(JobId id, String after) {
        String sql = "select path from file_result where job_id = ?" + (after == null ? "" : " and path > ?") + " order by path limit ?";
        return jdbc.inTransaction("read the recorded paths of job " + id, connection -> {
            try (PreparedStatement select = connection.prepareStatement(sql)) {
                int index = 1;
                select.setString(index++, id.value());
                if (after != null) {
                    select.setString(index++, after);
                }
                select.setInt(index, pageSize);
                List<String> paths = new ArrayList<>(pageSize);
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        paths.add(rows.getString(1));
                    }
                }
                return paths;
            }
        });
    }

    List<RecordedFile> files(JobId id, Optional<FileOutcome> outcome, Optional<String> afterPath, int limit) {
        requireNonNull(id, "id is null");
        requireNonNull(outcome, "outcome is null");
        requireNonNull(afterPath, "afterPath is null");
        String sql = "select " + Rows.FILE_COLUMNS + " from file_result where job_id = ?" + (outcome.isPresent() ? " and outcome = ?" : "")
                + (afterPath.isPresent() ? " and path > ?" : "") + " order by path limit ?";
        return jdbc.inTransaction("read the files of job " + id, connection -> {
            try (PreparedStatement select = connection.prepareStatement(sql)) {
                int index = 1;
                select.setString(index++, id.value());
                if (outcome.isPresent()) {
                    select.setString(index++, outcome.get().name());
                }
                if (afterPath.isPresent()) {
                    select.setString(index++, afterPath.get());
                }
                select.setInt(index, limit);
                List<RecordedFile> files = new ArrayList<>();
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        files.add(Rows.file(rows));
                    }
                }
                return files;
            }
        });
    }

    List<UnitInfo> unfinished(JobId id) {
        requireNonNull(id, "id is null");
        return jdbc.inTransaction("read the units of job " + id, connection -> {
            try (PreparedStatement select = connection.prepareStatement(
                    "select " + Rows.UNIT_COLUMNS + " from work_unit where job_id = ? and state <> 'DONE' order by seq")) {
                select.setString(1, id.value());
                List<UnitInfo> units = new ArrayList<>();
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        units.add(Rows.unit(rows));
                    }
                }
                return units;
            }
        });
    }

    Optional<byte[]> manifest(JobId id, long seq) {
        requireNonNull(id, "id is null");
        return jdbc.inTransaction("read unit " + seq + " of job " + id, connection -> {
            try (PreparedStatement select = connection.prepareStatement("select manifest from work_unit where job_id = ? and seq = ?")) {
                select.setString(1, id.value());
                select.setLong(2, seq);
                try (ResultSet rows = select.executeQuery()) {
                    return rows.next() ? Optional.of(rows.getBytes(1)) : Optional.empty();
                }
            }
        });
    }

    UnitCounts counts(Optional<JobId> id) {
        requireNonNull(id, "id is null");
        String sql = "select state, count(*), coalesce(sum(epoch), 0), coalesce(sum(case when epoch > 1 then epoch - 1 else 0 end), 0) "
                + "from work_unit" + (id.isPresent() ? " where job_id = ?" : "") + " group by state";
        return jdbc.inTransaction("count units", connection -> {
            try (PreparedStatement select = connection.prepareStatement(sql)) {
                if (id.isPresent()) {
                    select.setString(1, id.get().value());
                }
                long[] byState = new long[UnitState.values().length];
                long claims = 0;
                long revivals = 0;
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        byState[UnitState.valueOf(rows.getString(1)).ordinal()] = rows.getLong(2);
                        claims += rows.getLong(3);
                        revivals += rows.getLong(4);
                    }
                }
                return new UnitCounts(byState[0], byState[1], byState[2], claims, revivals);
            }
        });
    }

    List<NodeStageStats> stageStats(JobId id) {
        requireNonNull(id, "id is null");
        return jdbc.inTransaction("read the stage figures of job " + id, connection -> {
            try (PreparedStatement select = connection.prepareStatement("select node_id, stage, bytes, busy_nanos, wait_nanos, ops "
                    + "from stage_stats where job_id = ? order by node_id, stage")) {
                select.setString(1, id.value());
                List<NodeStageStats> stats = new ArrayList<>();
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        stats.add(Rows.stage(rows));
                    }
                }
                return stats;
            }
        });
    }

    private static UnitLock lockUnit(Connection connection, JobId id, long seq) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("select epoch, state, owner from work_unit where job_id = ? and seq = ? for update")) {
            select.setString(1, id.value());
            select.setLong(2, seq);
            try (ResultSet rows = select.executeQuery()) {
                if (!rows.next()) {
                    throw new MoverException(ErrorCode.NOT_FOUND, "no unit " + seq + " of job " + id + " in the job store");
                }
                return new UnitLock(rows.getLong(1), "DONE".equals(rows.getString(2)), Optional.ofNullable(rows.getString(3)).orElse("unknown"));
            }
        }
    }

    /** Per-row counts of a batch; a driver that hides them (pgjdbc's reWriteBatchedInserts) would break exactly-once counting. */
    private static int[] rowCounts(int[] counts) {
        for (int count : counts) {
            if (count != 0 && count != 1) {
                throw new IllegalStateException("the JDBC driver reported " + (count == Statement.SUCCESS_NO_INFO ? "no per-row count" : count)
                        + " for a batched insert: do not set reWriteBatchedInserts on the job store's URL");
            }
        }
        return counts;
    }

    private record UnitLock(long epoch, boolean done, String owner) {
    }

    /** What a commit recorded first. */
    private static final class Counts {
        long transferred;
        long skipped;
        long failed;
        long bytes;
        long retries;

        void add(FileResult result) {
            switch (result.outcome()) {
                case TRANSFERRED -> {
                    transferred++;
                    bytes += result.bytes();
                }
                case SKIPPED -> skipped++;
                case FAILED -> failed++;
            }
            retries += result.attempts() - 1;
        }
    }
}
