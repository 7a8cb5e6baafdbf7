package io.mover.jobstore;

/** The two databases the store runs on, with the same SQL and migrations. */
public enum Dialect {
    /** Embedded, a file database in PostgreSQL mode: one mover. */
    H2,
    /** A cluster of movers. */
    POSTGRESQL;

    static Dialect ofUrl(String jdbcUrl) {
        if (jdbcUrl.startsWith("jdbc:postgresql:")) {
            return POSTGRESQL;
        }
        if (jdbcUrl.startsWith("jdbc:h2:")) {
            return H2;
        }
        throw new io.mover.spi.MoverException(io.mover.spi.ErrorCode.INVALID_ARGUMENT,
                "unsupported job store URL '" + jdbcUrl.replaceAll("[?;].*", "") + "': use jdbc:postgresql://host/db or a data directory");
    }
}
