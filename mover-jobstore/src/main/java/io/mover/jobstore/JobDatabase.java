package io.mover.jobstore;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;

import static java.util.Objects.requireNonNull;

/**
 * An open job store database: the store, and its DataSource for db-scheduler (see {@link Schedulers}),
 * which must share it. Closing closes the pool, then releases the data directory lock.
 */
public final class JobDatabase implements AutoCloseable {
    private final HikariDataSource dataSource;
    private final Dialect dialect;
    private final JobStore store;
    private final DataDirLock lock;

    JobDatabase(HikariDataSource dataSource, Dialect dialect, JobStore store, DataDirLock lock) {
        this.dataSource = requireNonNull(dataSource, "dataSource is null");
        this.dialect = requireNonNull(dialect, "dialect is null");
        this.store = requireNonNull(store, "store is null");
        this.lock = lock;
    }

    public JobStore store() {
        return store;
    }

    public DataSource dataSource() {
        return dataSource;
    }

    public Dialect dialect() {
        return dialect;
    }

    @Override
    public void close() {
        try {
            dataSource.close(); // the last H2 connection closes the database file
        }
        finally {
            if (lock != null) {
                lock.close();
            }
        }
    }
}
