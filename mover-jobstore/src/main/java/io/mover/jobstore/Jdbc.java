package io.mover.jobstore;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Optional;

import javax.sql.DataSource;

import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

import static java.util.Objects.requireNonNull;

/** Transactions over a DataSource, and the few conversions both drivers agree on. */
final class Jdbc {
    @FunctionalInterface
    interface Work<T> {
        T run(Connection connection) throws SQLException;
    }

    private final DataSource dataSource;

    Jdbc(DataSource dataSource) {
        this.dataSource = requireNonNull(dataSource, "dataSource is null");
    }

    /** Runs {@code work} in one transaction: committed when it returns, rolled back when it throws. */
    <T> T inTransaction(String what, Work<T> work) {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try {
                T result = work.run(connection);
                connection.commit();
                return result;
            }
            catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            }
            finally {
                connection.setAutoCommit(true);
            }
        }
        catch (SQLException e) {
            throw failure(what, e);
        }
    }

    /** Runs a transaction that reports its own failure without changing anything: rolls back on false. */
    boolean inTransactionIf(String what, Work<Boolean> work) {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try {
                boolean ok = work.run(connection);
                if (ok) {
                    connection.commit();
                }
                else {
                    connection.rollback();
                }
                return ok;
            }
            catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            }
            finally {
                connection.setAutoCommit(true);
            }
        }
        catch (SQLException e) {
            throw failure(what, e);
        }
    }

    static MoverException failure(String what, SQLException e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage().lines().findFirst().orElse("");
        return new MoverException(ErrorCode.IO_ERROR, "job store could not " + what + ": " + message, e);
    }

    static void setInstant(PreparedStatement statement, int index, Instant instant) throws SQLException {
        statement.setObject(index, instant == null ? null : OffsetDateTime.ofInstant(instant, ZoneOffset.UTC));
    }

    static Instant instant(ResultSet rows, String column) throws SQLException {
        OffsetDateTime value = rows.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }

    static Optional<Instant> optionalInstant(ResultSet rows, String column) throws SQLException {
        return Optional.ofNullable(instant(rows, column));
    }

    static Optional<String> optionalString(ResultSet rows, String column) throws SQLException {
        return Optional.ofNullable(rows.getString(column));
    }

    /** Cuts text to what its column holds, so a long message never fails a commit. */
    static String clip(String text, int max) {
        return text == null || text.length() <= max ? text : text.substring(0, max - 3) + "...";
    }
}
