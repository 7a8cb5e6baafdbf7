package io.mover.jobstore;

import java.time.Instant;

import static java.util.Objects.requireNonNull;

/**
 * A mover of the cluster.
 *
 * @param id its node id
 * @param host its host name
 * @param started when it (last) started
 * @param heartbeat its latest heartbeat
 */
public record NodeInfo(String id, String host, Instant started, Instant heartbeat) {
    public NodeInfo {
        requireNonNull(id, "id is null");
        requireNonNull(host, "host is null");
        requireNonNull(started, "started is null");
        requireNonNull(heartbeat, "heartbeat is null");
    }
}
