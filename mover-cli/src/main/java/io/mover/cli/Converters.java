package io.mover.cli;

import java.time.Duration;

import io.mover.core.engine.OverwritePolicy;
import io.mover.spi.MoverException;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * picocli converters for mover's value syntaxes. They rethrow as {@link TypeConversionException} so
 * picocli reports "Invalid value for option '--x': <our message>" and exits with the usage code.
 */
final class Converters {
    private Converters() {}

    static final class Size implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            try {
                return Units.parseSize(value);
            }
            catch (MoverException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    static final class Interval implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            try {
                Duration duration = Units.parseDuration(value);
                if (duration.isZero() || duration.isNegative()) {
                    throw new TypeConversionException("'" + value + "' must be positive");
                }
                return duration;
            }
            catch (MoverException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    static final class OutputFormat implements ITypeConverter<CommonOptions.Output> {
        @Override
        public CommonOptions.Output convert(String value) {
            return enumValue(CommonOptions.Output.class, value, "text or json");
        }
    }

    static final class LogLevel implements ITypeConverter<CliLogging.Level> {
        @Override
        public CliLogging.Level convert(String value) {
            return enumValue(CliLogging.Level.class, value, "error, warn, info, debug or trace");
        }
    }

    /** Case-insensitive, so the lower-case spellings in the help and docs work whatever the command line's settings. */
    private static <E extends Enum<E>> E enumValue(Class<E> type, String value, String choices) {
        for (E constant : type.getEnumConstants()) {
            if (constant.name().equalsIgnoreCase(value.trim())) {
                return constant;
            }
        }
        throw new TypeConversionException("'" + value + "' is not one of " + choices);
    }

    static final class Overwrite implements ITypeConverter<OverwritePolicy> {
        @Override
        public OverwritePolicy convert(String value) {
            try {
                return OverwritePolicy.parse(value);
            }
            catch (MoverException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /** The value {@code parse} gives; its {@link MoverException} becomes picocli's "Invalid value" message. */
    static <T> T parsed(java.util.function.Supplier<T> parse) {
        try {
            return parse.get();
        }
        catch (MoverException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }
}
