package io.mover.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/** The tables of {@code jobs list}, {@code schedules list} and {@code plugins}: columns as wide as their widest cell, two blanks apart. */
final class TextTable {
    private TextTable() {}

    /** Prints {@code rows} (the header first), every row with as many cells as the header. */
    static void print(PrintWriter out, List<String[]> rows) {
        if (rows.isEmpty()) {
            return;
        }
        int[] widths = new int[rows.getFirst().length];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.length; i++) {
                // the last column is not padded, so lines carry no trailing blanks
                line.append(i == row.length - 1 ? row[i] : String.format(Locale.ROOT, "%-" + widths[i] + "s  ", row[i]));
            }
            out.println(line);
        }
    }
}
