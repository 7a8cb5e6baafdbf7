package io.mover.spi;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The configuration a factory accepts. The engine calls {@link #parse(Map)} before it creates
 * anything: all bad keys are reported at once (unknown keys included), so that a REST caller gets one
 * problem response that lists every field.
 */
public record ConfigSpec(List<ConfigKey> keys) {
    public static final ConfigSpec EMPTY = new ConfigSpec(List.of());

    public ConfigSpec {
        keys = List.copyOf(requireNonNull(keys, "keys is null"));
        long distinct = keys.stream().map(ConfigKey::name).distinct().count();
        if (distinct != keys.size()) {
            throw new IllegalArgumentException("duplicate configuration keys in " + keys.stream().map(ConfigKey::name).toList());
        }
    }

    public static ConfigSpec of(ConfigKey... keys) {
        return new ConfigSpec(List.of(keys));
    }

    public Optional<ConfigKey> key(String name) {
        return keys.stream().filter(key -> key.name().equals(name)).findFirst();
    }

    /** One invalid key and why. The message never contains the value of a secret key. */
    public record Problem(String key, String message) {
        public Problem {
            requireNonNull(key, "key is null");
            requireNonNull(message, "message is null");
        }
    }

    /** Thrown by {@link #parse} with every problem found; category {@link ErrorCategory#USER}. */
    public static final class InvalidConfigException extends MoverException {
        private static final long serialVersionUID = 1L;
        private final transient List<Problem> problems;

        public InvalidConfigException(List<Problem> problems) {
            super(ErrorCode.INVALID_CONFIG, "invalid configuration: " + String.join("; ",
                    problems.stream().map(p -> p.key() + ": " + p.message()).toList()));
            this.problems = List.copyOf(problems);
        }

        public List<Problem> problems() {
            return problems;
        }
    }

    /** Parses raw text values into a {@link PluginConfig}, or throws {@link InvalidConfigException}. */
    public PluginConfig parse(Map<String, String> raw) {
        requireNonNull(raw, "raw is null");
        List<Problem> problems = new ArrayList<>();
        for (String name : raw.keySet()) {
            if (key(name).isEmpty()) {
                problems.add(new Problem(name, "unknown key; known keys: " + keys.stream().map(ConfigKey::name).toList()));
            }
        }
        Map<String, Object> values = new LinkedHashMap<>();
        for (ConfigKey key : keys) {
            Optional<String> text = Optional.ofNullable(raw.get(key.name())).or(key::defaultValue);
            if (text.isEmpty()) {
                if (key.required()) {
                    problems.add(new Problem(key.name(), "required: " + key.doc()));
                }
                continue;
            }
            try {
                Object value = parseValue(key.type(), text.get().trim());
                if (!key.validator().test(value)) {
                    problems.add(new Problem(key.name(), "must be " + key.validatorDoc()
                            + (key.secret() ? "" : ", got '" + text.get() + "'")));
                    continue;
                }
                values.put(key.name(), value);
            }
            catch (IllegalArgumentException e) {
                problems.add(new Problem(key.name(), key.secret() ? "invalid value" : e.getMessage()));
            }
        }
        if (!problems.isEmpty()) {
            throw new InvalidConfigException(problems);
        }
        return new PluginConfig(values);
    }

    static Object parseValue(ConfigType type, String text) {
        return switch (type) {
            case STRING -> text;
            case SECRET -> Secret.of(text);
            case INT -> parseNumber(text, true);
            case LONG -> parseNumber(text, false);
            case BOOLEAN -> switch (text.toLowerCase(Locale.ROOT)) {
                case "true", "yes", "1" -> Boolean.TRUE;
                case "false", "no", "0" -> Boolean.FALSE;
                default -> throw new IllegalArgumentException("expected true or false, got '" + text + "'");
            };
            case SIZE -> parseSize(text);
            case DURATION -> parseDuration(text);
        };
    }

    private static Object parseNumber(String text, boolean isInt) {
        try {
            return isInt ? (Object) Integer.parseInt(text) : (Object) Long.parseLong(text);
        }
        catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected a whole number, got '" + text + "'");
        }
    }

    /** Parses {@code 4MiB}, {@code 4M}, {@code 64k}, {@code 1GiB}, {@code 512} (bytes); multiples are binary. */
    public static long parseSize(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT).replace("ib", "").replace("b", "");
        long multiplier = 1;
        if (!t.isEmpty()) {
            char unit = t.charAt(t.length() - 1);
            multiplier = switch (unit) {
                case 'k' -> 1L << 10;
                case 'm' -> 1L << 20;
                case 'g' -> 1L << 30;
                case 't' -> 1L << 40;
                default -> 1;
            };
            if (multiplier != 1) {
                t = t.substring(0, t.length() - 1);
            }
        }
        try {
            long value = Long.parseLong(t.trim());
            if (value < 0) {
                throw new IllegalArgumentException("a size cannot be negative: '" + text + "'");
            }
            return Math.multiplyExact(value, multiplier);
        }
        catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("expected a size such as 4MiB, 64k or 1048576, got '" + text + "'");
        }
    }

    /** Parses {@code 500ms}, {@code 30s}, {@code 5m}, {@code 2h}, {@code 1d} or ISO-8601 ({@code PT30S}). */
    public static Duration parseDuration(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        try {
            if (t.startsWith("p")) {
                return Duration.parse(text.trim().toUpperCase(Locale.ROOT));
            }
            if (t.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2)));
            }
            long amount = Long.parseLong(t.substring(0, t.length() - 1));
            return switch (t.charAt(t.length() - 1)) {
                case 's' -> Duration.ofSeconds(amount);
                case 'm' -> Duration.ofMinutes(amount);
                case 'h' -> Duration.ofHours(amount);
                case 'd' -> Duration.ofDays(amount);
                default -> throw new NumberFormatException();
            };
        }
        catch (RuntimeException e) {
            throw new IllegalArgumentException("expected a duration such as 500ms, 30s, 5m or PT30S, got '" + text + "'");
        }
    }
}
