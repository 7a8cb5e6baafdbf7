package io.mover.jobstore;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static io.mover.jobstore.Jdbc.update;
import static java.util.Objects.requireNonNull;

/** The node rows of {@link JdbcJobStore}: which nodes share the store, and when each was last alive. */
final class NodeTable {
    private final Jdbc jdbc;
    private final Clock clock;

    NodeTable(Jdbc jdbc, Clock clock) {
        this.jdbc = requireNonNull(jdbc, "jdbc is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    void register(String nodeId, String host) {
        requireNonNull(nodeId, "nodeId is null");
        requireNonNull(host, "host is null");
        Instant now = clock.instant();
        jdbc.inTransaction("register node " + nodeId, connection -> {
            // update, else insert: the node row is only ever written by its own node, so no race to merge
            if (update(connection, "update node set host = ?, started = ?, heartbeat = ? where id = ?", host, now, now, nodeId) == 0) {
                update(connection, "insert into node (id, host, started, heartbeat) values (?, ?, ?, ?)", nodeId, host, now, now);
            }
            return null;
        });
    }

    void heartbeat(String nodeId) {
        requireNonNull(nodeId, "nodeId is null");
        jdbc.inTransaction("refresh the heartbeat of node " + nodeId,
                connection -> update(connection, "update node set heartbeat = ? where id = ?", clock.instant(), nodeId));
    }

    List<NodeInfo> list() {
        return jdbc.inTransaction("list nodes", connection -> {
            List<NodeInfo> nodes = new ArrayList<>();
            try (PreparedStatement select = connection.prepareStatement("select id, host, started, heartbeat from node order by id");
                    ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    nodes.add(Rows.node(rows));
                }
            }
            return nodes;
        });
    }
}
