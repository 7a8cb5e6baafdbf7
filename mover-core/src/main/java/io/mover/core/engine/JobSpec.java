package io.mover.core.engine;

import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A job as submitted: what to move, from where to where, how. Immutable.
 *
 * @param kind copy, sync or bench
 * @param source the source location as the user gave it (a path or URI)
 * @param destination the destination location
 * @param sourceConfig configuration for the source plugin, as text, validated by its {@code ConfigSpec}
 * @param destinationConfig configuration for the destination plugin
 * @param options how to run
 * @param sourceCredential the name of a server-side credential whose keys were merged into
 *        {@code sourceConfig} (the name may be shown and stored; the values are secrets: a store that
 *        persists the spec keeps the name, drops the credential's keys, and resolves it again to run)
 * @param destinationCredential the same for {@code destinationConfig}
 * @param scheduleId the recurring sync schedule that started this job, if one did (issue 4): shown with the job, and
 *        what {@code GET /jobs?schedule=} filters on
 */
public record JobSpec(JobKind kind, String source, String destination, Map<String, String> sourceConfig,
        Map<String, String> destinationConfig, TransferOptions options, Optional<String> sourceCredential,
        Optional<String> destinationCredential, Optional<String> scheduleId) {
    public JobSpec {
        requireNonNull(kind, "kind is null");
        requireNonNull(source, "source is null");
        requireNonNull(destination, "destination is null");
        sourceConfig = Map.copyOf(requireNonNull(sourceConfig, "sourceConfig is null"));
        destinationConfig = Map.copyOf(requireNonNull(destinationConfig, "destinationConfig is null"));
        requireNonNull(options, "options is null");
        requireNonNull(sourceCredential, "sourceCredential is null");
        requireNonNull(destinationCredential, "destinationCredential is null");
        requireNonNull(scheduleId, "scheduleId is null");
    }

    /** A job no schedule started. */
    public JobSpec(JobKind kind, String source, String destination, Map<String, String> sourceConfig,
            Map<String, String> destinationConfig, TransferOptions options, Optional<String> sourceCredential,
            Optional<String> destinationCredential) {
        this(kind, source, destination, sourceConfig, destinationConfig, options, sourceCredential, destinationCredential, Optional.empty());
    }

    /** A job whose configuration names no stored credential. */
    public JobSpec(JobKind kind, String source, String destination, Map<String, String> sourceConfig,
            Map<String, String> destinationConfig, TransferOptions options) {
        this(kind, source, destination, sourceConfig, destinationConfig, options, Optional.empty(), Optional.empty());
    }

    /** This job as started by the schedule {@code id}. */
    public JobSpec withScheduleId(String id) {
        return new JobSpec(kind, source, destination, sourceConfig, destinationConfig, options, sourceCredential, destinationCredential,
                Optional.of(id));
    }

    public static JobSpec copy(String source, String destination, TransferOptions options) {
        return new JobSpec(JobKind.COPY, source, destination, Map.of(), Map.of(), options);
    }

    /**
     * A bench job (issue 8): measures {@code target} with generated data; {@code options.bench} says how, and
     * its block size and codec are those of the transfer sweep. The source is the generator, {@code gen:///}.
     */
    public static JobSpec bench(String target, Map<String, String> targetConfig, TransferOptions options) {
        return new JobSpec(JobKind.BENCH, "gen:///", target, Map.of(), targetConfig, options);
    }

    /** Config values are hidden: they may hold secrets; the locations print with their queries hidden. */
    @Override
    public String toString() {
        return "JobSpec[" + kind + " " + io.mover.spi.EndpointUri.parse(source) + " -> " + io.mover.spi.EndpointUri.parse(destination) + "]";
    }
}
