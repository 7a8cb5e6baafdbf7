package io.mover.spi;

/** The type of a configuration value, which decides how the text a user gives is parsed. */
public enum ConfigType {
    STRING,
    INT,
    LONG,
    BOOLEAN,
    /** A byte count: {@code 4194304}, {@code 4MiB}, {@code 64k}, {@code 1GiB} (binary multiples). */
    SIZE,
    /** A duration: {@code 30s}, {@code 500ms}, {@code 5m}, {@code 1h}, or ISO-8601 {@code PT30S}. */
    DURATION,
    /** A secret: parsed to {@link Secret}, never printed. */
    SECRET
}
