package io.mover.jobstore;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
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
        return run(what, work, result -> true);
    }

    /** Runs a transaction that reports its own refusal: committed when it returns true, rolled back when false. */
    boolean inTransactionIf(String what, Work<Boolean> work) {
        return run(what, work, ok -> ok);
    }

    private <T> T run(String what, Work<T> work, java.util.function.Predicate<T> commit) {
        // the pool restores auto-commit when the connection returns to it
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            T result;
            try {
                result = work.run(connection);
            }
            catch (SQLException | RuntimeException e) {
                rollback(connection, e);
                throw e;
            }
            if (commit.test(result)) {
                connection.commit();
            }
            else {
                connection.rollback();
            }
            return result;
        }
        catch (SQLException e) {
            throw failure(what, e);
        }
    }

    private static void rollback(Connection connection, Exception cause) {
        try {
            connection.rollback();
        }
        catch (SQLException e) {
            cause.addSuppressed(e); // the first failure is the one to report; the pool drops a broken connection
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

    /** Binds Strings, Longs and Instants in order and runs the update. */
    static int update(Connection connection, String sql, Object... values) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < values.length; i++) {
                switch (values[i]) {
                    case Instant instant -> setInstant(statement, i + 1, instant);
                    case Long number -> statement.setLong(i + 1, number);
                    case Integer number -> statement.setInt(i + 1, number);
                    case String text -> statement.setString(i + 1, text);
                    default -> throw new IllegalArgumentException("unsupported parameter " + values[i].getClass());
                }
            }
            return statement.executeUpdate();
        }
    }

    /** Cuts text to what its column holds, so a long message never fails a commit. */
    static String clip(String text, int max) {
        return text == null || text.length() <= max ? text : text.substring(0, max - 3) + "...";
    }
}
