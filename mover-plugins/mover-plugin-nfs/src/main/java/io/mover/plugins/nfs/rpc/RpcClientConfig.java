package io.mover.plugins.nfs.rpc;

import java.time.Duration;

import static java.util.Objects.requireNonNull;

/**
 * How an {@link RpcClient} talks to one server.
 *
 * @param connections TCP connections to open (lazily), calls spread over them by load
 * @param callsInFlight calls outstanding per connection before callers wait
 * @param callTimeout how long a sent call waits for its reply before it is retransmitted
 * @param maxSends how often one call is sent (first send plus retransmissions) before it fails
 * @param reconnectTimeout how long an established client keeps reconnecting to a vanished server
 * @param maxRecordBytes the largest reply accepted; anything larger drops the connection
 */
public record RpcClientConfig(int connections, int callsInFlight, Duration callTimeout, int maxSends, Duration reconnectTimeout,
        int maxRecordBytes) {
    public RpcClientConfig {
        requireNonNull(callTimeout, "callTimeout is null");
        requireNonNull(reconnectTimeout, "reconnectTimeout is null");
        if (connections < 1 || callsInFlight < 1 || maxSends < 1 || maxRecordBytes < 1024) {
            throw new IllegalArgumentException("connections, callsInFlight, maxSends must be positive and maxRecordBytes at least 1024");
        }
    }

    public static RpcClientConfig single() {
        return new RpcClientConfig(1, 16, Duration.ofSeconds(30), 3, Duration.ofSeconds(60), 4 << 20);
    }
}
