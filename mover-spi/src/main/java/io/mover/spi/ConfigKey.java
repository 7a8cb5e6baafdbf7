package io.mover.spi;

import java.util.Optional;
import java.util.function.Predicate;

import static java.util.Objects.requireNonNull;

/**
 * One configuration key a factory declares.
 *
 * @param name the key, lower-case with dashes ({@code connections-per-server})
 * @param type how the value is parsed
 * @param defaultValue the default, as text in the same syntax a user would write; empty when there is none
 * @param required whether a value must be given (a key with a default is never required)
 * @param doc one or two sentences for {@code mover plugins --verbose}, the REST API and the docs
 * @param validator checks the parsed value; the message of the check is {@code validatorDoc}
 * @param validatorDoc what a valid value is, shown when the check fails ({@code "between 1 and 64"})
 */
public record ConfigKey(String name, ConfigType type, Optional<String> defaultValue, boolean required, String doc,
        Predicate<Object> validator, String validatorDoc) {
    public ConfigKey {
        requireNonNull(name, "name is null");
        requireNonNull(type, "type is null");
        requireNonNull(defaultValue, "defaultValue is null");
        requireNonNull(doc, "doc is null");
        requireNonNull(validator, "validator is null");
        requireNonNull(validatorDoc, "validatorDoc is null");
        if (type == ConfigType.SECRET && defaultValue.isPresent()) {
            throw new IllegalArgumentException("secret key " + name + " cannot have a default");
        }
    }

    public boolean secret() {
        return type == ConfigType.SECRET;
    }

    /** An optional key with a default. */
    public static ConfigKey optional(String name, ConfigType type, String defaultValue, String doc) {
        return new ConfigKey(name, type, Optional.of(defaultValue), false, doc, value -> true, "");
    }

    /** An optional key with no default: absent unless the user gives it. */
    public static ConfigKey optional(String name, ConfigType type, String doc) {
        return new ConfigKey(name, type, Optional.empty(), false, doc, value -> true, "");
    }

    public static ConfigKey required(String name, ConfigType type, String doc) {
        return new ConfigKey(name, type, Optional.empty(), true, doc, value -> true, "");
    }

    /** This key with a check of its parsed value; {@code what} says what is valid. */
    public ConfigKey withValidator(Predicate<Object> check, String what) {
        return new ConfigKey(name, type, defaultValue, required, doc, check, what);
    }
}
