package io.mover.spi;

import static java.util.Objects.requireNonNull;

/**
 * A secret value (a key, a SAS token, a password). Its {@link #toString()} is {@code [hidden]}, so a
 * record holding one never leaks it into a log, a message or an API response; {@link #reveal()} is the
 * one explicit way to read it, at the moment it is handed to the storage client.
 */
public final class Secret {
    private final String value;

    private Secret(String value) {
        this.value = requireNonNull(value, "value is null");
    }

    public static Secret of(String value) {
        return new Secret(value);
    }

    public String reveal() {
        return value;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Secret other && java.security.MessageDigest.isEqual(
                value.getBytes(java.nio.charset.StandardCharsets.UTF_8), other.value.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    @Override
    public int hashCode() {
        return value.hashCode();
    }

    @Override
    public String toString() {
        return "[hidden]";
    }
}
