package io.mover.spi;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Configuration parsed and validated by {@link ConfigSpec#parse}: typed values, defaults applied.
 * A factory reads it once into its own record in {@code create}. Its {@link #toString()} hides secrets.
 */
public final class PluginConfig {
    public static final PluginConfig EMPTY = new PluginConfig(Map.of());

    private final Map<String, Object> values;

    PluginConfig(Map<String, Object> values) {
        this.values = Collections.unmodifiableMap(new LinkedHashMap<>(requireNonNull(values, "values is null")));
    }

    public Optional<String> string(String key) {
        return typed(key, String.class);
    }

    public Optional<Integer> integer(String key) {
        return typed(key, Integer.class);
    }

    public Optional<Long> longValue(String key) {
        return typed(key, Long.class);
    }

    public Optional<Boolean> bool(String key) {
        return typed(key, Boolean.class);
    }

    /** A {@link ConfigType#SIZE} value, in bytes. */
    public Optional<Long> size(String key) {
        return typed(key, Long.class);
    }

    public Optional<Duration> duration(String key) {
        return typed(key, Duration.class);
    }

    public Optional<Secret> secret(String key) {
        return typed(key, Secret.class);
    }

    private <T> Optional<T> typed(String key, Class<T> type) {
        Object value = values.get(key);
        if (value == null) {
            return Optional.empty();
        }
        if (!type.isInstance(value)) {
            throw new IllegalStateException("configuration key " + key + " holds a " + value.getClass().getSimpleName() + ", not a " + type.getSimpleName());
        }
        return Optional.of(type.cast(value));
    }

    public Map<String, Object> asMap() {
        return values;
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
