package io.mover.server.job.web;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.mover.core.engine.JobKind;
import io.mover.core.engine.JobSpec;
import io.mover.core.engine.TransferOptions;
import io.mover.server.problem.FieldProblem;
import io.mover.server.problem.InvalidRequestException;

/**
 * The body of {@code POST /api/v1/jobs}.
 *
 * @param kind {@code copy} (sync and bench arrive later)
 * @param source the source location: a path or a URI
 * @param destination the destination location
 * @param options how to run; absent means the defaults
 * @param sourceConfig the source plugin's configuration (may hold secrets: never echoed back)
 * @param destinationConfig the destination plugin's configuration
 */
public record SubmitJobRequest(String kind, String source, String destination, JobOptionsRequest options,
        Map<String, String> sourceConfig, Map<String, String> destinationConfig) {

    /** The engine's job spec, or an {@link InvalidRequestException} listing every bad field. */
    public JobSpec toSpec() {
        List<FieldProblem> problems = new ArrayList<>();
        JobKind jobKind = JobKind.COPY;
        if (kind == null || kind.isBlank()) {
            problems.add(new FieldProblem("kind", "is required: " + kinds()));
        }
        else {
            try {
                jobKind = JobKind.valueOf(kind.trim().toUpperCase(Locale.ROOT));
            }
            catch (IllegalArgumentException e) {
                problems.add(new FieldProblem("kind", "unknown kind '" + kind + "': " + kinds()));
            }
        }
        required(problems, "source", source);
        required(problems, "destination", destination);
        Map<String, String> from = config(problems, "sourceConfig", sourceConfig);
        Map<String, String> to = config(problems, "destinationConfig", destinationConfig);
        TransferOptions transfer = options == null ? TransferOptions.defaults() : options.toOptions(problems);
        if (!problems.isEmpty()) {
            throw new InvalidRequestException(problems);
        }
        return new JobSpec(jobKind, source.trim(), destination.trim(), from, to, transfer);
    }

    private static String kinds() {
        return "one of " + String.join(", ", java.util.Arrays.stream(JobKind.values()).map(k -> k.name().toLowerCase(Locale.ROOT)).toList());
    }

    private static void required(List<FieldProblem> problems, String field, String value) {
        if (value == null || value.isBlank()) {
            problems.add(new FieldProblem(field, "is required: a path or a URI such as file:///data/in"));
        }
    }

    private static Map<String, String> config(List<FieldProblem> problems, String field, Map<String, String> config) {
        if (config == null) {
            return Map.of();
        }
        for (Map.Entry<String, String> entry : config.entrySet()) {
            if (entry.getValue() == null) {
                problems.add(new FieldProblem(field + "." + entry.getKey(), "must have a value, got null"));
            }
        }
        return config;
    }
}
