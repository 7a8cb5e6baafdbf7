package io.mover.server.job.web;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

import io.mover.core.engine.OverwritePolicy;
import io.mover.core.engine.SymlinkPolicy;
import io.mover.core.engine.TransferOptions;
import io.mover.server.problem.FieldProblem;
import io.mover.spi.BlockHeader;
import io.mover.spi.ConfigSpec;
import io.mover.spi.MoverException;

/**
 * The {@code options} of a submitted job. Every field is optional; an absent one takes the engine's
 * default ({@link TransferOptions#defaults()}). Sizes and durations are text so that people can
 * write {@code "4MiB"} and {@code "500ms"}; a plain number is bytes.
 *
 * @param concurrency files (or ranges of large files) in flight, 1 to 1024
 * @param blockSize bytes per block, 4KiB to 32MiB
 * @param include globs a file's relative path must match (any of them)
 * @param exclude globs that exclude a file or directory
 * @param overwrite {@code true}, {@code false} or {@code if-source-newer}
 * @param symlinks {@code skip}, {@code follow} or {@code preserve}
 * @param codec {@code none}, {@code lz4}, {@code zstd:3}...
 * @param dryRun plan and report, change nothing
 * @param verify read every committed file back and compare checksums
 * @param retries attempts after the first for a retryable failure, 0 to 100
 * @param retryBackoff the first wait between attempts
 * @param bufferPool the cap on block buffer memory
 * @param bandwidthCapMbps megabits per second the job may write, across its workers; absent or 0 for no
 *        cap; changeable while it runs ({@code PATCH /api/v1/jobs/{id}})
 * @param sync what a job of kind {@code sync} compares, filters and deletes
 * @param bench what a job of kind {@code bench} measures
 */
public record JobOptionsRequest(Integer concurrency, String blockSize, List<String> include, List<String> exclude,
        String overwrite, String symlinks, String codec, Boolean dryRun, Boolean verify, Integer retries,
        String retryBackoff, String bufferPool, Double bandwidthCapMbps, SyncOptionsRequest sync, BenchOptionsRequest bench) {
    private static final String PREFIX = "options.";

    /** Options without {@code bench}. */
    public JobOptionsRequest(Integer concurrency, String blockSize, List<String> include, List<String> exclude, String overwrite, String symlinks,
            String codec, Boolean dryRun, Boolean verify, Integer retries, String retryBackoff, String bufferPool, Double bandwidthCapMbps,
            SyncOptionsRequest sync) {
        this(concurrency, blockSize, include, exclude, overwrite, symlinks, codec, dryRun, verify, retries, retryBackoff, bufferPool,
                bandwidthCapMbps, sync, null);
    }

    /** The engine options, or the problems of each bad field added to {@code problems}. */
    TransferOptions toOptions(List<FieldProblem> problems) {
        TransferOptions.Builder builder = TransferOptions.builder();
        List<FieldProblem> mine = new ArrayList<>();
        if (concurrency != null) {
            check(mine, "concurrency", concurrency >= 1 && concurrency <= TransferOptions.MAX_CONCURRENCY,
                    "must be between 1 and " + TransferOptions.MAX_CONCURRENCY + ", got " + concurrency);
            builder.concurrency(concurrency);
        }
        if (blockSize != null) {
            size(mine, "blockSize", blockSize, value -> {
                boolean fits = value >= 4096 && value <= BlockHeader.MAX_BLOCK_LENGTH / 2;
                check(mine, "blockSize", fits, "must be between 4KiB and 32MiB, got '" + blockSize + "'");
                if (fits) {
                    builder.blockSize((int) (long) value);
                }
            });
        }
        if (include != null) {
            globs(mine, "include", include);
            builder.includes(include);
        }
        if (exclude != null) {
            globs(mine, "exclude", exclude);
            builder.excludes(exclude);
        }
        if (overwrite != null) {
            try {
                builder.overwrite(OverwritePolicy.parse(overwrite));
            }
            catch (MoverException e) {
                mine.add(new FieldProblem(PREFIX + "overwrite", "must be true, false or if-source-newer, got '" + overwrite + "'"));
            }
        }
        if (symlinks != null) {
            try {
                builder.symlinks(SymlinkPolicy.valueOf(symlinks.trim().toUpperCase(Locale.ROOT)));
            }
            catch (IllegalArgumentException e) {
                mine.add(new FieldProblem(PREFIX + "symlinks", "must be skip, follow or preserve, got '" + symlinks + "'"));
            }
        }
        if (codec != null) {
            check(mine, "codec", !codec.isBlank(), "must name a codec such as none, lz4 or zstd:3");
            builder.codec(codec.trim());
        }
        if (dryRun != null) {
            builder.dryRun(dryRun);
        }
        if (verify != null) {
            builder.verify(verify);
        }
        int retryCount = retries == null ? TransferOptions.defaults().maxRetries() : retries;
        check(mine, "retries", retryCount >= 0 && retryCount <= 100, "must be between 0 and 100, got " + retryCount);
        Duration backoff = TransferOptions.defaults().retryBackoff();
        if (retryBackoff != null) {
            try {
                backoff = ConfigSpec.parseDuration(retryBackoff);
                check(mine, "retryBackoff", !backoff.isNegative(), "cannot be negative");
            }
            catch (IllegalArgumentException e) {
                mine.add(new FieldProblem(PREFIX + "retryBackoff", e.getMessage()));
            }
        }
        builder.retries(retryCount, backoff);
        if (bufferPool != null) {
            size(mine, "bufferPool", bufferPool, builder::bufferPoolBytes);
        }
        if (bandwidthCapMbps != null) {
            builder.bandwidthCap(BandwidthCap.bytesPerSecond(PREFIX + "bandwidthCapMbps", bandwidthCapMbps, mine));
        }
        if (sync != null) {
            builder.sync(sync.toOptions(mine));
        }
        if (bench != null) {
            builder.bench(bench.toOptions(mine, PREFIX + "bench."));
        }
        problems.addAll(mine);
        if (!mine.isEmpty()) {
            return TransferOptions.defaults();
        }
        TransferOptions options = builder.build();
        try {
            // the engine's own check covers the relations between fields (buffer pool vs block size)
            options.validate();
        }
        catch (MoverException e) {
            problems.add(new FieldProblem("options", e.getMessage()));
        }
        return options;
    }

    private static void size(List<FieldProblem> problems, String field, String text, Consumer<Long> then) {
        try {
            then.accept(ConfigSpec.parseSize(text));
        }
        catch (IllegalArgumentException e) {
            problems.add(new FieldProblem(PREFIX + field, e.getMessage()));
        }
    }

    private static void globs(List<FieldProblem> problems, String field, List<String> globs) {
        for (int i = 0; i < globs.size(); i++) {
            if (globs.get(i) == null || globs.get(i).isBlank()) {
                problems.add(new FieldProblem(PREFIX + field + "[" + i + "]", "must be a non-empty glob such as *.log or tmp/**"));
            }
        }
    }

    private static void check(List<FieldProblem> problems, String field, boolean ok, String reason) {
        if (!ok) {
            problems.add(new FieldProblem(PREFIX + field, reason));
        }
    }
}
