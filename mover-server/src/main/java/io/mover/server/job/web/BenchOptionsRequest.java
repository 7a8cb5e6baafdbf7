package io.mover.server.job.web;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.mover.core.engine.BenchOptions;
import io.mover.server.problem.FieldProblem;
import io.mover.spi.ConfigSpec;

/**
 * {@code options.bench} of a job of kind {@code bench} (and the body of {@code POST /api/v1/benches}): the
 * options of {@code mover bench} by the same names (docs/bench.md). Every field is optional; sizes and the
 * runtime are text ({@code "16KiB"}, {@code "2s"}). The values' own ranges are checked when the job is built.
 *
 * @param mode {@code transfer} (default) or {@code io}
 * @param files transfer: files written per step
 * @param size transfer: bytes per file
 * @param data transfer: {@code zeros}, {@code random}, {@code text} or {@code mixed}
 * @param concurrency transfer: the concurrencies to try
 * @param keep keep what was written
 * @param folder the bench's folder in the target
 * @param ioSize io: the test file's size
 * @param queueDepths io: the queue depths
 * @param runtime io: how long each corner runs at each depth
 * @param writeBlockSizes io: block sizes of the sequential-write sweep
 * @param streams tcp:// targets: the stream counts to try
 * @param codecs tcp:// targets: the codecs to try
 */
public record BenchOptionsRequest(String mode, Long files, String size, String data, List<Integer> concurrency, Boolean keep, String folder,
        String ioSize, List<Integer> queueDepths, String runtime, List<String> writeBlockSizes, List<Integer> streams, List<String> codecs) {

    /** The bench's options, each bad field added to {@code problems} under {@code prefix}. */
    public BenchOptions toOptions(List<FieldProblem> problems, String prefix) {
        BenchOptions d = BenchOptions.DEFAULTS;
        BenchOptions.Mode parsed = d.mode();
        if (mode != null) {
            try {
                parsed = BenchOptions.Mode.valueOf(mode.trim().toUpperCase(Locale.ROOT));
            }
            catch (IllegalArgumentException e) {
                problems.add(new FieldProblem(prefix + "mode", "unknown mode '" + mode + "': transfer or io"));
            }
        }
        long fileSize = FieldValues.size(problems, prefix + "size", size, d.fileSize());
        long io = FieldValues.size(problems, prefix + "ioSize", ioSize, d.ioSize());
        List<Long> blocks = new ArrayList<>();
        if (writeBlockSizes == null) {
            blocks.addAll(d.writeBlockSizes());
        }
        else {
            writeBlockSizes.forEach(each -> blocks.add(FieldValues.size(problems, prefix + "writeBlockSizes", each, 0)));
        }
        Duration each = d.runtime();
        if (runtime != null) {
            try {
                each = ConfigSpec.parseDuration(runtime);
            }
            catch (IllegalArgumentException e) {
                problems.add(new FieldProblem(prefix + "runtime", e.getMessage()));
            }
        }
        return new BenchOptions(parsed, files == null ? d.files() : files, fileSize, data == null ? d.data() : data,
                or(concurrency, d.concurrencies()), Boolean.TRUE.equals(keep), folder == null ? d.folder() : folder, io,
                or(queueDepths, d.queueDepths()), each, blocks, or(streams, d.streams()), or(codecs, d.codecs()));
    }

    private static <T> List<T> or(List<T> given, List<T> fallback) {
        return given == null ? fallback : given.stream().filter(java.util.Objects::nonNull).toList();
    }
}
