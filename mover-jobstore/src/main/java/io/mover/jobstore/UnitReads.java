package io.mover.jobstore;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import io.mover.core.service.JobId;

import static java.util.Objects.requireNonNull;

/** The read side of units, file results and stage figures, for {@link JdbcJobStore}. */
final class UnitReads {
    private final Jdbc jdbc;
    private final int pageSize;

    UnitReads(Jdbc jdbc, int pageSize) {
        this.jdbc = requireNonNull(jdbc, "jdbc is null");
        if (pageSize < 1) {
            throw new IllegalArgumentException("pageSize must be at least 1, got " + pageSize);
        }
        this.pageSize = pageSize;
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
}
