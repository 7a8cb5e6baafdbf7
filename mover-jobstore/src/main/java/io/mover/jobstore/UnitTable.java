package io.mover.jobstore;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import io.mover.core.service.JobId;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

import static io.mover.jobstore.Jdbc.clip;
import static io.mover.jobstore.Jdbc.setInstant;
import static io.mover.jobstore.Jdbc.update;
import static java.util.Objects.requireNonNull;

/** Work units and their commits: the exactly-once part of {@link JdbcJobStore} (reads are in {@link UnitReads}). */
final class UnitTable {
    // ON CONFLICT DO NOTHING is PostgreSQL's, and H2 accepts it in PostgreSQL mode: one portable insert-if-absent,
    // whose per-row update count (1 inserted, 0 already there) says which files this commit recorded first
    private static final String INSERT_FILE = "insert into file_result (job_id, path, unit_seq, outcome, bytes, attempts, error_code, "
            + "message, recorded_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict do nothing";
    private static final String INSERT_UNIT = "insert into work_unit (job_id, seq, state, epoch, file_count, byte_count, manifest, created) "
            + "values (?, ?, 'PENDING', 0, ?, ?, ?, ?) on conflict do nothing";

    private final Jdbc jdbc;
    private final Clock clock;

    UnitTable(Jdbc jdbc, Clock clock) {
        this.jdbc = requireNonNull(jdbc, "jdbc is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    int add(JobId id, List<NewUnit> units) {
        requireNonNull(id, "id is null");
        requireNonNull(units, "units is null");
        if (units.isEmpty()) {
            return 0;
        }
        return jdbc.inTransaction("add units to job " + id, connection -> {
            // the job first: an unknown job is NOT_FOUND rather than a foreign key violation
            if (update(connection, "update job set version = version + 1 where id = ?", id.value()) == 0) {
                throw JobTable.unknown(id);
            }
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
            update(connection, "update job set units_total = units_total + ? where id = ?", (long) added, id.value());
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
                throw new MoverException(ErrorCode.INVALID_CONFIG, "the job store's JDBC driver reported "
                        + (count == Statement.SUCCESS_NO_INFO ? "no per-row count" : count + " rows")
                        + " for a batched insert, which exactly-once counting needs: remove reWriteBatchedInserts from the job store URL");
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
                case DELETED -> { } // a sync's report counts them (StoredJob.syncJson)
            }
            retries += result.attempts() - 1;
        }
    }
}
