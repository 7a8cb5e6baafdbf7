package io.mover.server.problem;

import static java.util.Objects.requireNonNull;

/**
 * One bad field of a request, in a problem's {@code errors} list.
 *
 * @param field where it is, as a JSON path from the body's root ({@code options.concurrency}), or the
 *        query parameter's name
 * @param reason what is wrong with it, in words; never a secret's value
 */
public record FieldProblem(String field, String reason) {
    public FieldProblem {
        requireNonNull(field, "field is null");
        requireNonNull(reason, "reason is null");
    }
}
