package io.mover.cli;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

/**
 * Reads and writes the sizes, rates and durations operators type and read. Sizes are binary: {@code k},
 * {@code KB} and {@code KiB} all mean 1024 bytes, as in rclone, because block and buffer sizes are
 * powers of two and nobody means 4,000,000 when typing {@code 4M}.
 */
final class Units {
    private static final Pattern SIZE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*([kmgt]?)(i?b?)", Pattern.CASE_INSENSITIVE);
    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h)", Pattern.CASE_INSENSITIVE);
    private static final String[] BINARY_UNITS = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};

    private Units() {}

    /** {@code 4MiB}, {@code 512k}, {@code 1g}, {@code 65536}: bytes. */
    static long parseSize(String text) {
        Matcher m = SIZE.matcher(text.trim());
        if (!m.matches() || (m.group(2).isEmpty() && m.group(3).toLowerCase(Locale.ROOT).startsWith("i"))) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "invalid size '" + text + "': use a number with an optional unit, such as 4MiB, 512k or 1g");
        }
        int shift = switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "k" -> 10;
            case "m" -> 20;
            case "g" -> 30;
            case "t" -> 40;
            default -> 0;
        };
        double value = Double.parseDouble(m.group(1)) * (1L << shift);
        if (value >= Long.MAX_VALUE) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "invalid size '" + text + "': too large");
        }
        return (long) value;
    }

    /** {@code 2s}, {@code 500ms}, {@code 1m}, {@code 1h}, or ISO-8601 ({@code PT2S}). */
    static Duration parseDuration(String text) {
        String trimmed = text.trim();
        Matcher m = DURATION.matcher(trimmed);
        if (m.matches()) {
            double value = Double.parseDouble(m.group(1));
            double millis = switch (m.group(2).toLowerCase(Locale.ROOT)) {
                case "ms" -> value;
                case "s" -> value * 1_000;
                case "m" -> value * 60_000;
                default -> value * 3_600_000;
            };
            return Duration.ofMillis((long) millis);
        }
        try {
            return Duration.parse(trimmed);
        }
        catch (DateTimeParseException e) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "invalid duration '" + text + "': use a number with a unit, such as 500ms, 2s or 1m");
        }
    }

    /** {@code 1.5 GiB}; bytes below 1 KiB print exactly. */
    static String bytes(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        double value = bytes;
        int unit = 0;
        while (value >= 1024 && unit < BINARY_UNITS.length - 1) {
            value /= 1024;
            unit++;
        }
        return String.format(Locale.ROOT, "%.1f %s", value, BINARY_UNITS[unit]);
    }

    static String rate(double bytesPerSecond) {
        return bytes((long) bytesPerSecond) + "/s";
    }

    /** {@code 1h02m03s}, {@code 4m05s}, {@code 2.3s}. */
    static String duration(Duration duration) {
        long seconds = duration.toSeconds();
        if (seconds < 60) {
            return String.format(Locale.ROOT, "%.1fs", duration.toMillis() / 1000.0);
        }
        if (seconds < 3600) {
            return String.format(Locale.ROOT, "%dm%02ds", seconds / 60, seconds % 60);
        }
        return String.format(Locale.ROOT, "%dh%02dm%02ds", seconds / 3600, (seconds % 3600) / 60, seconds % 60);
    }
}
