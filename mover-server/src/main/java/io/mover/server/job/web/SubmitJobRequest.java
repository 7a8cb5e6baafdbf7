package io.mover.server.job.web;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import io.mover.bench.BenchSettings;
import io.mover.core.engine.JobKind;
import io.mover.core.engine.JobSpec;
import io.mover.core.engine.TransferOptions;
import io.mover.server.credential.CredentialStore;
import io.mover.server.problem.FieldProblem;
import io.mover.server.problem.InvalidRequestException;
import io.mover.spi.MoverException;

/**
 * The body of {@code POST /api/v1/jobs}.
 *
 * @param kind {@code copy}, {@code sync} or {@code bench}
 * @param source the source location: a path or a URI (a bench generates its data: absent)
 * @param destination the destination location (a bench's target)
 * @param options how to run; absent means the defaults
 * @param sourceConfig the source plugin's configuration (may hold secrets: never echoed back)
 * @param destinationConfig the destination plugin's configuration
 * @param sourceCredential the name of a server-side credential ({@code mover.credentials.<name>.*})
 *        whose keys are added to {@code sourceConfig}; the job shows the name, never the values
 * @param destinationCredential the same for {@code destinationConfig}
 */
public record SubmitJobRequest(String kind, String source, String destination, JobOptionsRequest options,
        Map<String, String> sourceConfig, Map<String, String> destinationConfig, String sourceCredential,
        String destinationCredential) {

    /** The engine's job spec, for a server without credentials. */
    public JobSpec toSpec() {
        return toSpec(CredentialStore.EMPTY);
    }

    /** The engine's job spec, credentials resolved, or an {@link InvalidRequestException} listing every bad field. */
    public JobSpec toSpec(CredentialStore credentials) {
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
        boolean bench = jobKind == JobKind.BENCH;
        if (!bench) {
            required(problems, "source", source);
        }
        else if (source != null && !source.trim().startsWith("gen:")) {
            problems.add(new FieldProblem("source", "a bench writes data it generates (gen:///): leave source out"));
        }
        required(problems, "destination", destination);
        if (!bench && options != null && options.bench() != null) {
            problems.add(new FieldProblem("options.bench", "applies to jobs of kind bench only"));
        }
        Map<String, String> from = config(problems, "sourceConfig", sourceConfig);
        Map<String, String> to = config(problems, "destinationConfig", destinationConfig);
        Optional<String> fromCredential = credential(problems, "sourceCredential", sourceCredential, credentials);
        Optional<String> toCredential = credential(problems, "destinationCredential", destinationCredential, credentials);
        from = merge(problems, "sourceConfig", from, fromCredential, credentials);
        to = merge(problems, "destinationConfig", to, toCredential, credentials);
        TransferOptions transfer = options == null ? TransferOptions.defaults() : options.toOptions(problems);
        if (!problems.isEmpty()) {
            throw new InvalidRequestException(problems);
        }
        if (bench) {
            // the bench's target is the destination; its data is generated
            JobSpec spec = new JobSpec(jobKind, "gen:///", destination.trim(), Map.of(), to, transfer, Optional.empty(), toCredential);
            try {
                BenchSettings.of(spec);
            }
            catch (MoverException e) {
                throw new InvalidRequestException(List.of(new FieldProblem("options.bench", e.getMessage())));
            }
            return spec;
        }
        return new JobSpec(jobKind, source.trim(), destination.trim(), from, to, transfer, fromCredential, toCredential);
    }

    private static Optional<String> credential(List<FieldProblem> problems, String field, String name, CredentialStore credentials) {
        if (name == null) {
            return Optional.empty();
        }
        if (credentials.find(name).isEmpty()) {
            List<String> known = credentials.names();
            problems.add(new FieldProblem(field, "unknown credential '" + name + "'; " + (known.isEmpty()
                    ? "this server has none (an administrator sets mover.credentials.<name>.<key>=<value>)"
                    : "this server has: " + String.join(", ", known))));
            return Optional.empty();
        }
        return Optional.of(name);
    }

    /** The inline keys plus the credential's; a key set in both is refused rather than silently chosen. */
    private static Map<String, String> merge(List<FieldProblem> problems, String field, Map<String, String> inline,
            Optional<String> name, CredentialStore credentials) {
        if (name.isEmpty()) {
            return inline;
        }
        Map<String, String> merged = new HashMap<>(credentials.find(name.get()).orElseThrow());
        for (Map.Entry<String, String> entry : inline.entrySet()) {
            if (merged.containsKey(entry.getKey())) {
                problems.add(new FieldProblem(field + "." + entry.getKey(), "is also set by credential '" + name.get() + "'; set it in one place"));
            }
            else {
                merged.put(entry.getKey(), entry.getValue());
            }
        }
        return merged;
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
