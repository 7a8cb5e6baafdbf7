package io.mover.server.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.mover.bench.IoSettings;
import io.mover.bench.TransferSettings;
import io.mover.server.problem.FieldProblem;
import io.mover.server.problem.InvalidRequestException;
import io.mover.spi.ConfigSpec;
import io.mover.spi.MoverException;

/**
 * The body of {@code POST /api/v1/benches}: the options of {@code mover bench} (docs/bench.md), by the
 * same names. Only {@code target} is required; absent fields take the CLI's defaults.
 */
public record BenchRequest(String mode, String target, Map<String, String> destinationConfig, Long files, String size, String data,
        List<Integer> concurrency, String blockSize, String codec, Boolean keep, String folder, String ioSize, List<Integer> queueDepths,
        String runtime, List<String> writeBlockSizes) {

    boolean io() {
        return mode != null && mode.trim().toLowerCase(Locale.ROOT).equals("io");
    }

    /** Checks the mode and the target, then builds the settings, or throws one 400 listing every bad field. */
    Object settings() {
        List<FieldProblem> problems = new ArrayList<>();
        if (mode != null && !List.of("transfer", "io").contains(mode.trim().toLowerCase(Locale.ROOT))) {
            problems.add(new FieldProblem("mode", "unknown mode '" + mode + "': transfer or io"));
        }
        if (target == null || target.isBlank()) {
            problems.add(new FieldProblem("target", "is required: a path or a URI where the bench may write its own folder"));
        }
        long fileSize = size(problems, "size", size, "1MiB");
        long block = size(problems, "blockSize", blockSize, "1MiB");
        long io = size(problems, "ioSize", ioSize, "1GiB");
        List<Long> blocks = new ArrayList<>();
        for (String each : writeBlockSizes == null ? List.of("4KiB", "16KiB", "64KiB", "256KiB", "1MiB", "4MiB") : writeBlockSizes) {
            blocks.add(size(problems, "writeBlockSizes", each, "64KiB"));
        }
        Duration each = Duration.ofSeconds(2);
        if (runtime != null) {
            try {
                each = ConfigSpec.parseDuration(runtime);
            }
            catch (IllegalArgumentException e) {
                problems.add(new FieldProblem("runtime", e.getMessage()));
            }
        }
        if (!problems.isEmpty()) {
            throw new InvalidRequestException(problems);
        }
        Map<String, String> config = destinationConfig == null ? Map.of() : destinationConfig;
        String name = folder == null ? TransferSettings.DEFAULT_FOLDER : folder;
        try {
            if (io()) {
                return new IoSettings(target.trim(), config, io, queueDepths == null ? List.of(1, 2, 4, 8, 16, 32, 64) : queueDepths, blocks, each,
                        Boolean.TRUE.equals(keep), name);
            }
            return new TransferSettings(target.trim(), config, files == null ? 1000 : files, fileSize, data == null ? "random" : data,
                    concurrency == null ? List.of(1, 4, 16, 64) : concurrency, (int) Math.min(block, Integer.MAX_VALUE),
                    codec == null ? "none" : codec, Boolean.TRUE.equals(keep), name);
        }
        catch (MoverException e) {
            // the settings name the CLI's option (--files); the API's field is the same word
            throw new InvalidRequestException(List.of(new FieldProblem("options", e.getMessage())));
        }
    }

    private static long size(List<FieldProblem> problems, String field, String text, String fallback) {
        try {
            return ConfigSpec.parseSize(text == null ? fallback : text);
        }
        catch (IllegalArgumentException e) {
            problems.add(new FieldProblem(field, e.getMessage()));
            return 0;
        }
    }
}
