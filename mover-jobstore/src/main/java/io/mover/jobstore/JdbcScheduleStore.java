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

import javax.sql.DataSource;

import io.mover.jobstore.schedule.InvalidScheduleException;
import io.mover.jobstore.schedule.RpoState;
import io.mover.jobstore.schedule.ScheduleDefinition;
import io.mover.jobstore.schedule.ScheduleEvent;
import io.mover.jobstore.schedule.StoredSchedule;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

import static io.mover.jobstore.Jdbc.clip;
import static io.mover.jobstore.Jdbc.instant;
import static io.mover.jobstore.Jdbc.optionalString;
import static io.mover.jobstore.Jdbc.setInstant;
import static java.util.Objects.requireNonNull;

/**
 * Sync schedules and their events (migration V1_5). Every change of a schedule's row runs under its row lock
 * ({@link #change}), so the movers of a cluster decide one at a time whether a firing starts a job. Thread-safe.
 */
public final class JdbcScheduleStore {
    /** Events kept per schedule; older ones are removed as new ones come. */
    public static final int EVENTS_KEPT = 200;

    /** Work on one schedule under its row lock. */
    @FunctionalInterface
    public interface Change<T> {
        T apply(Locked schedule) throws SQLException;
    }

    private final Jdbc jdbc;
    private final Clock clock;

    public JdbcScheduleStore(DataSource dataSource, Clock clock) {
        this.jdbc = new Jdbc(requireNonNull(dataSource, "dataSource is null"));
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** Stores a new schedule with a CREATED event; a name in use is refused naming the field. */
    public StoredSchedule create(String id, ScheduleDefinition definition, RpoState rpo, String message) {
        return jdbc.inTransaction("create schedule " + definition.name(), connection -> {
            requireFreeName(connection, definition.name(), id);
            Instant now = clock.instant();
            try (PreparedStatement insert = connection.prepareStatement("insert into sync_schedule (id, name, cron, interval_millis, time_zone, "
                    + "template_json, rpo_target_millis, overlap, paused, created, updated, rpo_state) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                insert.setString(1, id);
                ScheduleRows.bind(insert, definition, 2);
                setInstant(insert, 10, now);
                setInstant(insert, 11, now);
                insert.setString(12, rpo.name());
                insert.executeUpdate();
            }
            Locked locked = new Locked(connection, ScheduleRows.find(connection, id, "").orElseThrow());
            locked.event(ScheduleEvent.Kind.CREATED, Optional.empty(), message);
            return locked.schedule();
        });
    }

    public Optional<StoredSchedule> get(String id) {
        requireNonNull(id, "id is null");
        return jdbc.inTransaction("read schedule " + id, connection -> ScheduleRows.find(connection, id, ""));
    }

    public Optional<StoredSchedule> byName(String name) {
        requireNonNull(name, "name is null");
        return jdbc.inTransaction("read schedule " + name, connection -> ScheduleRows.select(connection, "where name = ?", name).stream().findFirst());
    }

    /** Every schedule, by name. */
    public List<StoredSchedule> list() {
        return jdbc.inTransaction("list schedules", connection -> ScheduleRows.select(connection, "order by name"));
    }

    /** Removes the schedule and its events; the jobs it started stay. False when there was none. */
    public boolean delete(String id) {
        return jdbc.inTransaction("delete schedule " + id, connection -> {
            try (PreparedStatement delete = connection.prepareStatement("delete from sync_schedule where id = ?")) {
                delete.setString(1, id);
                return delete.executeUpdate() == 1;
            }
        });
    }

    /** Runs {@code change} on the schedule's locked row in one transaction; NOT_FOUND when it does not exist. */
    public <T> T change(String id, Change<T> change) {
        return jdbc.inTransaction("change schedule " + id, connection -> {
            StoredSchedule schedule = ScheduleRows.find(connection, id, " for update")
                    .orElseThrow(() -> new MoverException(ErrorCode.NOT_FOUND, "no schedule " + id));
            return change.apply(new Locked(connection, schedule));
        });
    }

    /** Events with a number after {@code afterSeq}, oldest first, at most {@code limit}. */
    public List<ScheduleEvent> events(String id, long afterSeq, int limit) {
        return jdbc.inTransaction("read the events of schedule " + id, connection -> {
            try (PreparedStatement select = connection.prepareStatement(
                    "select seq, at, kind, job_id, message from schedule_event where schedule_id = ? and seq > ? order by seq limit ?")) {
                select.setString(1, id);
                select.setLong(2, afterSeq);
                select.setInt(3, limit);
                List<ScheduleEvent> events = new ArrayList<>();
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        events.add(new ScheduleEvent(rows.getLong("seq"), instant(rows, "at"), ScheduleEvent.Kind.valueOf(rows.getString("kind")),
                                optionalString(rows, "job_id"), rows.getString("message")));
                    }
                }
                return events;
            }
        });
    }

    /** The newest event's number, 0 when there is none. */
    public long lastEventSeq(String id) {
        return jdbc.inTransaction("read the events of schedule " + id, connection -> eventSeq(connection, id));
    }

    /** The job of this schedule that succeeded and started last: its id and start, the recovery point it gives. */
    public Optional<Run> lastSuccess(String scheduleId) {
        return jdbc.inTransaction("find the last successful run of schedule " + scheduleId, connection -> lastSuccess(connection, scheduleId));
    }

    private static Optional<Run> lastSuccess(Connection connection, String scheduleId) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("select id, started from job where schedule_id = ? and state = 'SUCCEEDED' "
                + "and started is not null order by started desc limit 1")) {
            select.setString(1, scheduleId);
            try (ResultSet rows = select.executeQuery()) {
                return rows.next() ? Optional.of(new Run(rows.getString("id"), instant(rows, "started"))) : Optional.empty();
            }
        }
    }

    /** A job of a schedule and when it started. */
    public record Run(String jobId, Instant started) {
    }

    /** A schedule's row, locked for the transaction: each change is written at once, and {@link #schedule()} is the row as it is now. */
    public final class Locked {
        private final Connection connection;
        private StoredSchedule schedule;

        private Locked(Connection connection, StoredSchedule schedule) {
            this.connection = connection;
            this.schedule = schedule;
        }

        public StoredSchedule schedule() {
            return schedule;
        }

        public Instant now() {
            return clock.instant();
        }

        /** {@link JdbcScheduleStore#lastSuccess}, in this transaction. */
        public Optional<Run> lastSuccess() throws SQLException {
            return JdbcScheduleStore.lastSuccess(connection, schedule.id());
        }

        /** Replaces what the user defined (a PATCH, pause, resume). */
        public void define(ScheduleDefinition definition) throws SQLException {
            if (!definition.name().equals(schedule.name())) {
                requireFreeName(connection, definition.name(), schedule.id());
            }
            try (PreparedStatement update = connection.prepareStatement("update sync_schedule set name = ?, cron = ?, interval_millis = ?, "
                    + "time_zone = ?, template_json = ?, rpo_target_millis = ?, overlap = ?, paused = ?, updated = ?, version = version + 1 where id = ?")) {
                ScheduleRows.bind(update, definition, 1);
                setInstant(update, 9, clock.instant());
                update.setString(10, schedule.id());
                update.executeUpdate();
            }
            reread();
        }

        /** A firing started {@code jobId}: it is the run now watched, and no firing waits any more. */
        public void fired(String jobId) throws SQLException {
            set("last_fired = ?, last_job_id = ?, last_job_seen_end = false, queued = false, fired = fired + 1", clock.instant(), jobId);
        }

        public void queued(boolean value) throws SQLException {
            set("queued = ?", value);
        }

        public void skipped() throws SQLException {
            set("skipped = skipped + 1");
        }

        public void submitFailed() throws SQLException {
            set("submit_failures = submit_failures + 1, queued = false");
        }

        /** The end of the last job has been recorded. */
        public void sawEnd() throws SQLException {
            set("last_job_seen_end = true");
        }

        public void rpo(RpoState state) throws SQLException {
            set("rpo_state = ?", state.name());
        }

        /** Adds an event (the schedule keeps its last {@link #EVENTS_KEPT}). */
        public ScheduleEvent event(ScheduleEvent.Kind kind, Optional<String> jobId, String message) throws SQLException {
            long seq = eventSeq(connection, schedule.id()) + 1;
            Instant at = clock.instant();
            try (PreparedStatement insert = connection.prepareStatement(
                    "insert into schedule_event (schedule_id, seq, at, kind, job_id, message) values (?, ?, ?, ?, ?, ?)")) {
                insert.setString(1, schedule.id());
                insert.setLong(2, seq);
                setInstant(insert, 3, at);
                insert.setString(4, kind.name());
                insert.setString(5, jobId.orElse(null));
                insert.setString(6, clip(message, 2000));
                insert.executeUpdate();
            }
            try (PreparedStatement trim = connection.prepareStatement("delete from schedule_event where schedule_id = ? and seq <= ?")) {
                trim.setString(1, schedule.id());
                trim.setLong(2, seq - EVENTS_KEPT);
                trim.executeUpdate();
            }
            set("event_seq = ?", seq);
            return new ScheduleEvent(seq, at, kind, jobId, message);
        }

        private void set(String assignments, Object... values) throws SQLException {
            try (PreparedStatement update = connection.prepareStatement("update sync_schedule set " + assignments + ", version = version + 1 where id = ?")) {
                int index = 1;
                for (Object value : values) {
                    if (value instanceof Instant time) {
                        setInstant(update, index++, time);
                    }
                    else {
                        update.setObject(index++, value);
                    }
                }
                update.setString(index, schedule.id());
                update.executeUpdate();
            }
            reread();
        }

        private void reread() throws SQLException {
            schedule = ScheduleRows.find(connection, schedule.id(), "").orElseThrow();
        }
    }

    private static long eventSeq(Connection connection, String id) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("select event_seq from sync_schedule where id = ?")) {
            select.setString(1, id);
            try (ResultSet rows = select.executeQuery()) {
                return rows.next() ? rows.getLong(1) : 0;
            }
        }
    }

    private static void requireFreeName(Connection connection, String name, String id) throws SQLException {
        for (StoredSchedule other : ScheduleRows.select(connection, "where name = ?", name)) {
            if (!other.id().equals(id)) {
                throw new InvalidScheduleException("name", "a schedule named '" + name + "' exists already (id " + other.id() + ")");
            }
        }
    }
}
