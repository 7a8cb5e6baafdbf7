package io.mover.jobstore.schedule;

import java.time.Duration;
import java.util.Optional;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * What the user defines of a schedule.
 *
 * @param name unique, 1 to 64 of letters, digits, {@code .}, {@code _} and {@code -}, starting with a letter or digit
 * @param timing when it fires
 * @param templateJson the sync job each firing submits, as the store keeps job specs (never a secret)
 * @param rpoTarget the recovery point promised: the last successful run must have started at most this long ago
 * @param overlap what a firing does while the previous run has not ended
 * @param paused a paused schedule does not fire
 */
public record ScheduleDefinition(String name, ScheduleTiming timing, String templateJson, Optional<Duration> rpoTarget, OverlapPolicy overlap,
        boolean paused) {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

    public ScheduleDefinition {
        requireNonNull(name, "name is null");
        requireNonNull(timing, "timing is null");
        requireNonNull(templateJson, "templateJson is null");
        requireNonNull(rpoTarget, "rpoTarget is null");
        requireNonNull(overlap, "overlap is null");
        checkName(name);
        rpoTarget.ifPresent(target -> {
            if (target.compareTo(Duration.ofSeconds(1)) < 0) {
                throw new InvalidScheduleException("rpoTarget", "must be at least 1s, got " + target);
            }
        });
    }

    public static void checkName(String name) {
        if (!NAME.matcher(name).matches()) {
            throw new InvalidScheduleException("name", "must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit; got '"
                    + name + "'");
        }
    }

    public ScheduleDefinition withPaused(boolean value) {
        return new ScheduleDefinition(name, timing, templateJson, rpoTarget, overlap, value);
    }
}
