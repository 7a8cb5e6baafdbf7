package io.mover.jobstore;

import java.nio.file.Path;
import java.time.Clock;

import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.pool.HikariPool;

import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.Secret;

import static java.util.Objects.requireNonNull;

/** Opens the job store: the pool, the migrations, the store. */
public final class JobStores {
    /** The H2 options of the embedded store: PostgreSQL's SQL, lower-case names, nulls last as PostgreSQL sorts them. */
    static final String H2_OPTIONS = ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH;LOCK_TIMEOUT=10000";

    private JobStores() {
    }

    /**
     * The embedded store: an H2 file database at {@code <dataDir>/mover}, after taking the data directory's
     * lock (a second mover on the same directory fails here, with a message saying which pid holds it).
     */
    public static JobDatabase open(Path dataDir) {
        return open(dataDir, Clock.systemUTC());
    }

    /** The embedded store, its pool sized for {@code executions} at once ({@link #poolSize}). */
    public static JobDatabase open(Path dataDir, int executions) {
        return open(dataDir, Clock.systemUTC(), executions);
    }

    /**
     * Connections for {@code executions} running at once (the scheduler's threads, {@code mover.job-store.threads}):
     * a schedule's firing holds one connection under the schedule row's lock while it asks for a second (its job's
     * insert, db-scheduler's completion), so a pool smaller than two per execution can leave every holder waiting for
     * the others until the connection timeout; four more serve db-scheduler's polling and the REST API.
     */
    public static int poolSize(int executions) {
        return Math.max(10, 2 * executions + 4);
    }

    /** The embedded store, whose timestamps come from {@code clock} (tests of schedules move time by hand). */
    public static JobDatabase open(Path dataDir, Clock clock) {
        return open(dataDir, clock, SchedulerSettings.DEFAULT_THREADS);
    }

    private static JobDatabase open(Path dataDir, Clock clock, int executions) {
        requireNonNull(dataDir, "dataDir is null");
        requireNonNull(clock, "clock is null");
        Path dir = dataDir.toAbsolutePath().normalize();
        DataDirLock lock = DataDirLock.acquire(dir);
        try {
            return open("jdbc:h2:file:" + dir.resolve("mover") + H2_OPTIONS, "sa", Secret.of(""), lock, clock, executions);
        }
        catch (RuntimeException e) {
            lock.close();
            throw e;
        }
    }

    /** A store at {@code jdbcUrl}: {@code jdbc:postgresql://host:port/db} for a cluster (or a {@code jdbc:h2:} URL). */
    public static JobDatabase open(String jdbcUrl, String user, Secret password) {
        return open(jdbcUrl, user, password, SchedulerSettings.DEFAULT_THREADS);
    }

    /** A store at {@code jdbcUrl}, its pool sized for {@code executions} at once ({@link #poolSize}). */
    public static JobDatabase open(String jdbcUrl, String user, Secret password, int executions) {
        requireNonNull(jdbcUrl, "jdbcUrl is null");
        requireNonNull(user, "user is null");
        requireNonNull(password, "password is null");
        return open(jdbcUrl, user, password, null, Clock.systemUTC(), executions);
    }

    private static JobDatabase open(String jdbcUrl, String user, Secret password, DataDirLock lock, Clock clock, int executions) {
        Dialect dialect = Dialect.ofUrl(jdbcUrl);
        HikariConfig config = new HikariConfig();
        config.setPoolName("mover-jobstore");
        config.setJdbcUrl(jdbcUrl);
        config.setUsername(user);
        config.setPassword(password.reveal());
        config.setMaximumPoolSize(poolSize(executions));
        config.setConnectionTimeout(10_000);
        HikariDataSource dataSource;
        try {
            dataSource = new HikariDataSource(config);
        }
        catch (HikariPool.PoolInitializationException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new MoverException(ErrorCode.IO_ERROR, "cannot open the job store at " + shown(jdbcUrl) + ": " + firstLine(cause), e);
        }
        try {
            Flyway.configure().dataSource(dataSource).locations("classpath:db/migration").load().migrate();
            return new JobDatabase(dataSource, dialect, new JdbcJobStore(dataSource, clock), lock);
        }
        catch (FlywayException e) {
            dataSource.close();
            throw new MoverException(ErrorCode.IO_ERROR, "cannot migrate the job store at " + shown(jdbcUrl) + ": " + firstLine(e), e);
        }
        catch (RuntimeException e) {
            dataSource.close();
            throw e;
        }
    }

    /** The URL without its options, which may carry a password. */
    static String shown(String jdbcUrl) {
        return jdbcUrl.replaceAll("[?;].*", "");
    }

    private static String firstLine(Throwable e) {
        String message = e.getMessage();
        return message == null ? e.getClass().getSimpleName() : message.lines().findFirst().orElse("").strip();
    }
}
