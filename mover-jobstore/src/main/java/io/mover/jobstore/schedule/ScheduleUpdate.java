package io.mover.jobstore.schedule;

import java.time.Duration;
import java.util.Optional;

import io.mover.core.engine.JobSpec;

import static java.util.Objects.requireNonNull;

/**
 * A change of a schedule (PATCH): each present field replaces the schedule's.
 *
 * @param name a new name
 * @param timing a new cron expression or interval
 * @param template a new template (replaced whole)
 * @param rpoTarget a new RPO target
 * @param clearRpoTarget remove the target (the RPO is still measured)
 * @param overlap a new overlap policy
 * @param paused pause or resume
 */
public record ScheduleUpdate(Optional<String> name, Optional<ScheduleTiming> timing, Optional<JobSpec> template, Optional<Duration> rpoTarget,
        boolean clearRpoTarget, Optional<OverlapPolicy> overlap, Optional<Boolean> paused) {
    public ScheduleUpdate {
        requireNonNull(name, "name is null");
        requireNonNull(timing, "timing is null");
        requireNonNull(template, "template is null");
        requireNonNull(rpoTarget, "rpoTarget is null");
        requireNonNull(overlap, "overlap is null");
        requireNonNull(paused, "paused is null");
        if (clearRpoTarget && rpoTarget.isPresent()) {
            throw new InvalidScheduleException("rpoTarget", "set it or clear it, not both");
        }
    }

    public static ScheduleUpdate none() {
        return new ScheduleUpdate(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), false, Optional.empty(), Optional.empty());
    }

    /** This update, pausing or resuming too. */
    public ScheduleUpdate withPaused(boolean value) {
        return new ScheduleUpdate(name, timing, template, rpoTarget, clearRpoTarget, overlap, Optional.of(value));
    }

    /** True when it only pauses or resumes. */
    public boolean pausedOnly() {
        return paused.isPresent() && withPaused(false).equals(none().withPaused(false));
    }

    /** The fields changed, for the UPDATED event. */
    public String describe() {
        StringBuilder text = new StringBuilder();
        name.ifPresent(value -> text.append(", name ").append(value));
        timing.ifPresent(value -> text.append(", ").append(value));
        template.ifPresent(value -> text.append(", template ").append(value));
        rpoTarget.ifPresent(value -> text.append(", RPO target ").append(value));
        if (clearRpoTarget) {
            text.append(", no RPO target");
        }
        overlap.ifPresent(value -> text.append(", overlap ").append(value.apiName()));
        paused.ifPresent(value -> text.append(value ? ", paused" : ", resumed"));
        return text.isEmpty() ? "nothing" : text.substring(2);
    }
}
