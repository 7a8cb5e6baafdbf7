package io.mover.bench;

import java.util.Locale;

/** Sizes and rates in binary units, as the rest of mover prints them (1.5 MiB, 210.4 MiB/s). */
public final class Sizes {
    private static final String[] UNITS = {"B", "KiB", "MiB", "GiB", "TiB"};

    private Sizes() {}

    public static String bytes(double bytes) {
        int unit = 0;
        while (bytes >= 1024 && unit < UNITS.length - 1) {
            bytes /= 1024;
            unit++;
        }
        return unit == 0 ? String.format(Locale.ROOT, "%.0f B", bytes) : String.format(Locale.ROOT, "%.1f %s", bytes, UNITS[unit]);
    }

    public static String rate(double bytesPerSecond) {
        return bytes(bytesPerSecond) + "/s";
    }

    /** A compact size for options and labels: 64KiB, 1MiB, 1536KiB. */
    public static String option(long bytes) {
        if (bytes % (1L << 20) == 0 && bytes > 0) {
            return (bytes >> 20) + "MiB";
        }
        return bytes % 1024 == 0 ? (bytes >> 10) + "KiB" : Long.toString(bytes);
    }
}
