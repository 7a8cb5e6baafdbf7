package io.mover.server.job.web;

import java.util.List;

import io.mover.server.problem.FieldProblem;

/**
 * The API states bandwidth caps in megabits per second, as people size links; the engine counts
 * bytes per second. 1 Mbps = 125,000 bytes/s.
 */
final class BandwidthCap {
    static final double MIN_MBPS = 0.01;
    /** 8,000,000 Mbps is 1 TB/s: anything above is a typo. */
    static final double MAX_MBPS = 8_000_000;
    private static final double BYTES_PER_MEGABIT = 125_000;

    private BandwidthCap() {}

    /** Bytes per second for {@code mbps}; 0 (no cap) for 0; a problem on {@code field} when out of range. */
    static long bytesPerSecond(String field, double mbps, List<FieldProblem> problems) {
        if (mbps == 0) {
            return 0;
        }
        if (!(mbps >= MIN_MBPS && mbps <= MAX_MBPS)) {
            problems.add(new FieldProblem(field, "must be 0 (no cap) or between " + MIN_MBPS + " and " + (long) MAX_MBPS
                    + " megabits per second, got " + mbps));
            return 0;
        }
        return Math.round(mbps * BYTES_PER_MEGABIT);
    }

    /** {@code bytesPerSecond} in megabits per second; null for no cap. */
    static Double mbps(long bytesPerSecond) {
        return bytesPerSecond == 0 ? null : bytesPerSecond / BYTES_PER_MEGABIT;
    }
}
