package io.mover.jobstore.schedule;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Optional;

import com.github.kagkarlsson.scheduler.task.ExecutionComplete;
import com.github.kagkarlsson.scheduler.task.schedule.CronSchedule;
import com.github.kagkarlsson.scheduler.task.schedule.CronStyle;
import com.github.kagkarlsson.scheduler.task.schedule.Schedule;

import static java.util.Objects.requireNonNull;

/**
 * When a schedule fires: a cron expression read in a time zone, or a fixed interval. Cron expressions have 5 fields
 * (minute hour day month weekday, as crontab) or 6 (seconds first, as Spring); db-scheduler's {@link CronSchedule}
 * (cron-utils) parses both.
 *
 * @param cron the cron expression, when the schedule has one
 * @param interval the interval, when the schedule has no cron expression
 * @param zone the zone the cron expression is read in (the interval ignores it)
 */
public record ScheduleTiming(Optional<String> cron, Optional<Duration> interval, ZoneId zone) {
    public static final Duration MIN_INTERVAL = Duration.ofSeconds(10);
    public static final Duration MAX_INTERVAL = Duration.ofDays(366);

    public ScheduleTiming {
        requireNonNull(cron, "cron is null");
        requireNonNull(interval, "interval is null");
        requireNonNull(zone, "zone is null");
        if (cron.isPresent() == interval.isPresent()) {
            throw new InvalidScheduleException("cron", "give either cron or interval");
        }
        interval.ifPresent(ScheduleTiming::checkInterval);
        cron.ifPresent(expression -> parse(expression, zone));
    }

    public static ScheduleTiming cron(String expression, ZoneId zone) {
        return new ScheduleTiming(Optional.of(expression.trim()), Optional.empty(), zone);
    }

    public static ScheduleTiming every(Duration interval) {
        return new ScheduleTiming(Optional.empty(), Optional.of(interval), ZoneId.of("UTC"));
    }

    /** A zone by its id ({@code UTC}, {@code Europe/Paris}), or the problem naming {@code field}. */
    public static ZoneId zone(String field, String id) {
        try {
            return ZoneId.of(id.trim());
        }
        catch (DateTimeException e) {
            throw new InvalidScheduleException(field, "unknown time zone '" + id + "': use an id such as UTC or Europe/Paris");
        }
    }

    /** The first firing of a new (or resumed) schedule: an interval fires at once, a cron expression at its next match. */
    public Instant first(Instant now) {
        return interval.isPresent() ? now : parse(cron.orElseThrow(), zone).getNextExecutionTime(ExecutionComplete.simulatedSuccess(now));
    }

    /**
     * The firing after the one due at {@code due}: an interval keeps its rate from {@code due} (a firing missed while
     * no mover ran is made once, at once, not once per missed interval); a cron expression fires at its next match.
     */
    public Instant after(Instant due, Instant now) {
        if (interval.isPresent()) {
            Instant next = due.plus(interval.get());
            return next.isBefore(now) ? now : next;
        }
        return parse(cron.orElseThrow(), zone).getNextExecutionTime(ExecutionComplete.simulatedSuccess(now));
    }

    /** How the API shows it: the cron expression, or the interval in ISO-8601. */
    @Override
    public String toString() {
        return cron.map(expression -> "cron '" + expression + "' (" + zone + ")").orElseGet(() -> "every " + interval.orElseThrow());
    }

    private static void checkInterval(Duration interval) {
        if (interval.compareTo(MIN_INTERVAL) < 0 || interval.compareTo(MAX_INTERVAL) > 0) {
            throw new InvalidScheduleException("interval", "must be between 10s and 366d, got " + interval);
        }
    }

    static Schedule parse(String expression, ZoneId zone) {
        String trimmed = expression.trim();
        int fields = trimmed.isEmpty() ? 0 : trimmed.split("\\s+").length;
        if (fields != 5 && fields != 6) {
            throw new InvalidScheduleException("cron", "invalid cron expression '" + expression + "': it has " + fields
                    + " fields; use 5 (minute hour day month weekday, such as '*/15 * * * *') or 6 (seconds first)");
        }
        CronSchedule schedule;
        try {
            schedule = new CronSchedule(trimmed, zone, fields == 5 ? CronStyle.UNIX : CronStyle.SPRING53);
        }
        catch (RuntimeException e) {
            throw new InvalidScheduleException("cron", "invalid cron expression '" + expression + "': " + e.getMessage());
        }
        Instant next = schedule.getNextExecutionTime(ExecutionComplete.simulatedSuccess(Instant.now()));
        if (schedule.isDisabled() || next == null || next.equals(Schedule.NEVER)) {
            throw new InvalidScheduleException("cron", "the cron expression '" + expression + "' never fires");
        }
        return schedule;
    }
}
