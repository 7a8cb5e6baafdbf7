package io.mover.jobstore;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Map;
import java.util.TreeMap;

import io.mover.core.service.JobId;

import static java.util.Objects.requireNonNull;

/** A job's plugin counters, summed over what its units and its driver counted, for {@link JdbcJobStore} (migration V1_7). */
final class PluginCounterRows {
    private final Jdbc jdbc;

    PluginCounterRows(Jdbc jdbc) {
        this.jdbc = requireNonNull(jdbc, "jdbc is null");
    }

    void add(JobId id, Map<String, Long> counters) {
        requireNonNull(id, "id is null");
        requireNonNull(counters, "counters is null");
        if (counters.values().stream().allMatch(value -> value == 0)) {
            return;
        }
        jdbc.inTransaction("add the plugin counters of job " + id, connection -> {
            // the job row's lock serialises the nodes adding to one job, so update-else-insert needs no merge
            try (PreparedStatement lock = connection.prepareStatement("select id from job where id = ? for update")) {
                lock.setString(1, id.value());
                try (ResultSet rows = lock.executeQuery()) {
                    if (!rows.next()) {
                        throw JobTable.unknown(id);
                    }
                }
            }
            for (Map.Entry<String, Long> counter : counters.entrySet()) {
                String name = Jdbc.clip(counter.getKey(), 200);
                if (counter.getValue() != 0 && Jdbc.update(connection, "update plugin_counter set total = total + ? where job_id = ? and name = ?",
                        counter.getValue(), id.value(), name) == 0) {
                    Jdbc.update(connection, "insert into plugin_counter (job_id, name, total) values (?, ?, ?)", id.value(), name, counter.getValue());
                }
            }
            return null;
        });
    }

    Map<String, Long> read(JobId id) {
        requireNonNull(id, "id is null");
        return jdbc.inTransaction("read the plugin counters of job " + id, connection -> {
            try (PreparedStatement select = connection.prepareStatement("select name, total from plugin_counter where job_id = ?")) {
                select.setString(1, id.value());
                Map<String, Long> counters = new TreeMap<>();
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        counters.put(rows.getString(1), rows.getLong(2));
                    }
                }
                return counters;
            }
        });
    }
}
