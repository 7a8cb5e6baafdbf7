package io.mover.server.job.web;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import io.mover.core.engine.SyncOptions;
import io.mover.server.problem.FieldProblem;
import io.mover.spi.ConfigSpec;
import io.mover.spi.MoverException;

/**
 * {@code options.sync} of a job of kind {@code sync} (docs/rest.md): what it compares, filters and deletes.
 * Sizes as {@code "4MiB"} or bytes, ages as {@code "12h"}, {@code "7d"} or ISO-8601.
 *
 * @param deleteDestination {@code true} or {@code false} ({@code prompt} needs a terminal: refused here)
 * @param maxDelete fail before deleting anything when more files would be deleted; absent or -1 for no limit
 * @param compare {@code size-mtime}, {@code size-only} or {@code checksum}
 * @param force delete even when the source lists no file at all
 * @param filesFrom a file on the server listing the relative paths to consider
 * @param minSize leave smaller files alone
 * @param maxSize leave larger files alone
 * @param minAge leave files modified more recently alone
 * @param maxAge leave files modified longer ago alone
 * @param catalog read the destination from the catalog of the last successful sync of this pair instead of listing it
 *        (only for destinations nothing but mover writes; docs/rest.md)
 */
public record SyncOptionsRequest(String deleteDestination, Long maxDelete, String compare, Boolean force, String filesFrom,
        String minSize, String maxSize, String minAge, String maxAge, Boolean catalog) {
    private static final String PREFIX = "options.sync.";

    /** The engine's sync options, or the problems of each bad field added to {@code problems}. */
    SyncOptions toOptions(List<FieldProblem> problems) {
        SyncOptions defaults = SyncOptions.DEFAULTS;
        SyncOptions.DeleteMode deletes = defaults.deletes();
        if (deleteDestination != null) {
            try {
                deletes = SyncOptions.DeleteMode.parse(deleteDestination);
                if (deletes == SyncOptions.DeleteMode.PROMPT) {
                    problems.add(new FieldProblem(PREFIX + "deleteDestination", "prompt needs a terminal to ask on; use true with maxDelete"));
                }
            }
            catch (MoverException e) {
                problems.add(new FieldProblem(PREFIX + "deleteDestination", "must be true or false, got '" + deleteDestination + "'"));
            }
        }
        SyncOptions.ComparePolicy policy = defaults.compare();
        if (compare != null) {
            try {
                policy = SyncOptions.ComparePolicy.parse(compare);
            }
            catch (MoverException e) {
                problems.add(new FieldProblem(PREFIX + "compare", "must be size-mtime, size-only or checksum, got '" + compare + "'"));
            }
        }
        SyncOptions options = new SyncOptions(deletes, maxDelete == null ? -1 : maxDelete, policy, Boolean.TRUE.equals(force),
                Optional.ofNullable(filesFrom), size(problems, "minSize", minSize, 0), size(problems, "maxSize", maxSize, -1),
                age(problems, "minAge", minAge), age(problems, "maxAge", maxAge), Boolean.TRUE.equals(catalog));
        try {
            options.validate();
        }
        catch (MoverException e) {
            problems.add(new FieldProblem("options.sync", e.getMessage()));
        }
        return options;
    }

    private static long size(List<FieldProblem> problems, String field, String text, long absent) {
        return FieldValues.size(problems, PREFIX + field, text, absent);
    }

    private static Optional<Duration> age(List<FieldProblem> problems, String field, String text) {
        if (text == null) {
            return Optional.empty();
        }
        String trimmed = text.trim();
        try {
            if (trimmed.matches("\\d+[dD]")) {
                return Optional.of(Duration.ofDays(Long.parseLong(trimmed.substring(0, trimmed.length() - 1))));
            }
            return Optional.of(ConfigSpec.parseDuration(trimmed));
        }
        catch (IllegalArgumentException e) {
            problems.add(new FieldProblem(PREFIX + field, e.getMessage()));
            return Optional.empty();
        }
    }
}
