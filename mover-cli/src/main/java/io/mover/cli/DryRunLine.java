package io.mover.cli;

/** A dry run's planned change in text: {@code would copy logs/a.txt (1.2 MiB)}. */
final class DryRunLine {
    private DryRunLine() {}

    static String format(String action, String path, long size) {
        return "would " + action + " " + path + " (" + Units.bytes(size) + ")";
    }
}
