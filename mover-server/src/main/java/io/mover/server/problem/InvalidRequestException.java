package io.mover.server.problem;

import java.util.List;

/** A request the server refuses before doing anything: every bad field at once. Rendered as 400. */
public final class InvalidRequestException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient List<FieldProblem> problems;

    public InvalidRequestException(List<FieldProblem> problems) {
        super("invalid request: " + String.join("; ", problems.stream().map(p -> p.field() + ": " + p.reason()).toList()));
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("an invalid request needs at least one problem");
        }
        this.problems = List.copyOf(problems);
    }

    public static InvalidRequestException of(String field, String reason) {
        return new InvalidRequestException(List.of(new FieldProblem(field, reason)));
    }

    public List<FieldProblem> problems() {
        return problems;
    }
}
