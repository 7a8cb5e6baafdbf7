package io.mover.server.job.web;

import java.util.List;

import io.mover.server.problem.FieldProblem;
import io.mover.spi.ConfigSpec;

/** Values of request fields written as text, parsed with each bad one added to the request's problems. */
public final class FieldValues {
    private FieldValues() {}

    /** A size ({@code "4MiB"}, {@code "64k"}, bytes), {@code absent} when not given or bad (then a problem is added). */
    public static long size(List<FieldProblem> problems, String field, String text, long absent) {
        if (text == null) {
            return absent;
        }
        try {
            return ConfigSpec.parseSize(text);
        }
        catch (IllegalArgumentException e) {
            problems.add(new FieldProblem(field, e.getMessage()));
            return absent;
        }
    }
}
