package io.mover.jobstore.service;

import java.time.Duration;

/** Durations in schedule events and logs, in the largest two units: {@code 2d 3h}, {@code 31m 5s}, {@code 45s}. */
final class Durations {
    private Durations() {
    }

    static String text(Duration duration) {
        long seconds = Math.max(0, duration.toSeconds());
        long days = seconds / 86_400;
        long hours = seconds % 86_400 / 3600;
        long minutes = seconds % 3600 / 60;
        if (days > 0) {
            return days + "d " + hours + "h";
        }
        if (hours > 0) {
            return hours + "h " + minutes + "m";
        }
        return minutes > 0 ? minutes + "m " + seconds % 60 + "s" : seconds + "s";
    }
}
