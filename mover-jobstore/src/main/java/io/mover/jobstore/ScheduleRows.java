package io.mover.jobstore;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.mover.jobstore.schedule.OverlapPolicy;
import io.mover.jobstore.schedule.RpoState;
import io.mover.jobstore.schedule.ScheduleDefinition;
import io.mover.jobstore.schedule.ScheduleTiming;
import io.mover.jobstore.schedule.StoredSchedule;

import static io.mover.jobstore.Jdbc.instant;
import static io.mover.jobstore.Jdbc.optionalInstant;
import static io.mover.jobstore.Jdbc.optionalString;

/** The {@code sync_schedule} row to and from {@link StoredSchedule}, for {@link JdbcScheduleStore} (as {@link Rows} is for jobs). */
final class ScheduleRows {
    private static final String COLUMNS = "id, name, cron, interval_millis, time_zone, template_json, rpo_target_millis, overlap, paused, "
            + "created, updated, last_fired, last_job_id, last_job_seen_end, queued, fired, skipped, submit_failures, rpo_state, version";

    private ScheduleRows() {}

    /** Binds a definition's eight columns from {@code first} on, in the order of the insert and update statements. */
    static void bind(PreparedStatement statement, ScheduleDefinition definition, int first) throws SQLException {
        ScheduleTiming timing = definition.timing();
        statement.setString(first, definition.name());
        statement.setString(first + 1, timing.cron().orElse(null));
        statement.setObject(first + 2, timing.interval().map(Duration::toMillis).orElse(null));
        statement.setString(first + 3, timing.zone().getId());
        statement.setString(first + 4, definition.templateJson());
        statement.setObject(first + 5, definition.rpoTarget().map(Duration::toMillis).orElse(null));
        statement.setString(first + 6, definition.overlap().name());
        statement.setBoolean(first + 7, definition.paused());
    }

    /** The schedule with this id; {@code suffix} may lock it ({@code " for update"}). */
    static Optional<StoredSchedule> find(Connection connection, String id, String suffix) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("select " + COLUMNS + " from sync_schedule where id = ?" + suffix)) {
            select.setString(1, id);
            try (ResultSet rows = select.executeQuery()) {
                return rows.next() ? Optional.of(row(rows)) : Optional.empty();
            }
        }
    }

    /** The schedules a {@code where} (or {@code order by}) clause selects, its {@code ?}s bound to {@code values}. */
    static List<StoredSchedule> select(Connection connection, String where, String... values) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("select " + COLUMNS + " from sync_schedule " + where)) {
            for (int i = 0; i < values.length; i++) {
                select.setString(i + 1, values[i]);
            }
            List<StoredSchedule> schedules = new ArrayList<>();
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    schedules.add(row(rows));
                }
            }
            return schedules;
        }
    }

    private static StoredSchedule row(ResultSet rows) throws SQLException {
        long interval = rows.getLong("interval_millis");
        Optional<Duration> every = rows.wasNull() ? Optional.empty() : Optional.of(Duration.ofMillis(interval));
        long target = rows.getLong("rpo_target_millis");
        Optional<Duration> rpoTarget = rows.wasNull() ? Optional.empty() : Optional.of(Duration.ofMillis(target));
        ScheduleTiming timing = new ScheduleTiming(optionalString(rows, "cron"), every, ZoneId.of(rows.getString("time_zone")));
        ScheduleDefinition definition = new ScheduleDefinition(rows.getString("name"), timing, rows.getString("template_json"), rpoTarget,
                OverlapPolicy.valueOf(rows.getString("overlap")), rows.getBoolean("paused"));
        return new StoredSchedule(rows.getString("id"), definition, instant(rows, "created"), instant(rows, "updated"),
                optionalInstant(rows, "last_fired"), optionalString(rows, "last_job_id"), rows.getBoolean("last_job_seen_end"),
                rows.getBoolean("queued"), rows.getLong("fired"), rows.getLong("skipped"), rows.getLong("submit_failures"),
                RpoState.valueOf(rows.getString("rpo_state")), rows.getLong("version"));
    }
}
