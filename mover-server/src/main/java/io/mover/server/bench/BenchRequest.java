package io.mover.server.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.mover.bench.BenchSettings;
import io.mover.core.engine.JobSpec;
import io.mover.core.engine.TransferOptions;
import io.mover.server.job.web.BenchOptionsRequest;
import io.mover.server.job.web.FieldValues;
import io.mover.server.problem.FieldProblem;
import io.mover.server.problem.InvalidRequestException;
import io.mover.spi.MoverException;

/**
 * The body of {@code POST /api/v1/benches} (kept for clients of the first bench API, such as {@code mover bench
 * --server}): the options of {@code mover bench} by the same names, flat. It becomes the same job as
 * {@code POST /api/v1/jobs} with {@code "kind": "bench"}. Only {@code target} is required; absent fields take
 * the CLI's defaults (codec {@code none}).
 */
public record BenchRequest(String mode, String target, Map<String, String> destinationConfig, Long files, String size, String data,
        List<Integer> concurrency, String blockSize, String codec, Boolean keep, String folder, String ioSize, List<Integer> queueDepths,
        String runtime, List<String> writeBlockSizes, List<Integer> streams, List<String> codecs) {

    /** The bench job, or one 400 listing every bad field; the settings' own checks come as field {@code options}. */
    JobSpec toSpec() {
        List<FieldProblem> problems = new ArrayList<>();
        var bench = new BenchOptionsRequest(mode, files, size, data, concurrency, keep, folder, ioSize, queueDepths, runtime, writeBlockSizes,
                streams, codecs).toOptions(problems, "");
        if (target == null || target.isBlank()) {
            problems.add(new FieldProblem("target", "is required: a path or a URI where the bench may write its own folder"));
        }
        long block = FieldValues.size(problems, "blockSize", blockSize, 1 << 20);
        if (!problems.isEmpty()) {
            throw new InvalidRequestException(problems);
        }
        try {
            TransferOptions options = TransferOptions.builder().blockSize((int) Math.min(block, Integer.MAX_VALUE))
                    .codec(codec == null ? "none" : codec).bench(bench).build();
            JobSpec spec = JobSpec.bench(target.trim(), destinationConfig == null ? Map.of() : destinationConfig, options);
            BenchSettings.of(spec);
            return spec;
        }
        catch (MoverException e) {
            // the settings name the CLI's option (--files); the API's field is the same word
            throw new InvalidRequestException(List.of(new FieldProblem("options", e.getMessage())));
        }
    }
}
