package io.mover.core.service;

import java.time.Duration;
import java.time.Instant;

import static java.util.Objects.requireNonNull;

/**
 * A mover process sharing the job store: a node of the cluster (one, on the embedded store).
 *
 * @param id its name in the store, {@code host-pid}
 * @param host the host it runs on
 * @param started when it registered
 * @param heartbeat when it last said it was alive (every 10 s while it runs)
 * @param self whether it is the node answering
 */
public record NodeView(String id, String host, Instant started, Instant heartbeat, boolean self) {
    /** A node silent for longer than this (three missed heartbeats) is shown as gone. */
    public static final Duration SILENCE = Duration.ofSeconds(30);

    public NodeView {
        requireNonNull(id, "id is null");
        requireNonNull(host, "host is null");
        requireNonNull(started, "started is null");
        requireNonNull(heartbeat, "heartbeat is null");
    }

    /** Whether it has been heard from within {@link #SILENCE} of {@code now}. */
    public boolean alive(Instant now) {
        return self || !heartbeat.plus(SILENCE).isBefore(now);
    }

    /** This host's name, as nodes show it. */
    public static String localHost() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        }
        catch (java.io.IOException e) {
            return "localhost";
        }
    }

    /** This process's node id: host and pid, unique while it runs. */
    public static String localId() {
        return localHost() + "-" + ProcessHandle.current().pid();
    }
}
