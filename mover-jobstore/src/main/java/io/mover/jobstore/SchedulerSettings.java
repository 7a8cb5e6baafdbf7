package io.mover.jobstore;

import java.time.Clock;
import java.time.Duration;

import static java.util.Objects.requireNonNull;

/**
 * How a node's db-scheduler runs.
 *
 * @param nodeName this node's name in {@code scheduled_tasks.picked_by} (the node id)
 * @param pollingInterval how often it looks for due executions
 * @param heartbeatInterval how often it refreshes the heartbeat of the executions it runs
 * @param missedHeartbeatsLimit heartbeats missed before another node declares an execution dead and revives it (at least 4)
 * @param threads executions run at once on this node
 * @param shutdownMaxWait how long stopping waits for running executions
 * @param clock the time it schedules and detects dead executions by
 */
public record SchedulerSettings(String nodeName, Duration pollingInterval, Duration heartbeatInterval, int missedHeartbeatsLimit,
        int threads, Duration shutdownMaxWait, Clock clock) {
    public SchedulerSettings {
        requireNonNull(nodeName, "nodeName is null");
        requireNonNull(pollingInterval, "pollingInterval is null");
        requireNonNull(heartbeatInterval, "heartbeatInterval is null");
        requireNonNull(shutdownMaxWait, "shutdownMaxWait is null");
        requireNonNull(clock, "clock is null");
        if (missedHeartbeatsLimit < 4) {
            throw new IllegalArgumentException("missedHeartbeatsLimit must be at least 4 (db-scheduler's floor), got " + missedHeartbeatsLimit);
        }
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1, got " + threads);
        }
    }

    /** Executions a node runs at once unless told otherwise. */
    public static final int DEFAULT_THREADS = 8;

    /** A node's defaults: a dead node's executions are revived about a minute after its last heartbeat. */
    public static SchedulerSettings defaults(String nodeName) {
        return new SchedulerSettings(nodeName, Duration.ofSeconds(2), Duration.ofSeconds(10), 6, DEFAULT_THREADS, Duration.ofSeconds(30),
                Clock.systemUTC());
    }

    /** These settings with another number of executions run at once. */
    public SchedulerSettings withThreads(int value) {
        return new SchedulerSettings(nodeName, pollingInterval, heartbeatInterval, missedHeartbeatsLimit, value, shutdownMaxWait, clock);
    }

    /** These settings with another heartbeat interval: the dead-execution timeout is this times the missed-heartbeats limit. */
    public SchedulerSettings withHeartbeatInterval(Duration interval) {
        return new SchedulerSettings(nodeName, pollingInterval, interval, missedHeartbeatsLimit, threads, shutdownMaxWait, clock);
    }
}
