package io.mover.jobstore.schedule;

import java.util.Locale;

/** What a firing does while the schedule's previous run has not ended. */
public enum OverlapPolicy {
    /** The firing is skipped (an event says so); the next firing tries again. */
    SKIP,
    /** One firing waits and starts as soon as the running job ends; further firings meanwhile are skipped. */
    QUEUE_ONE;

    public static OverlapPolicy parse(String text) {
        return switch (text.trim().toLowerCase(Locale.ROOT).replace('_', '-')) {
            case "skip" -> SKIP;
            case "queue-one", "queue" -> QUEUE_ONE;
            default -> throw new InvalidScheduleException("overlap", "must be skip or queue-one, got '" + text + "'");
        };
    }

    public String apiName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
