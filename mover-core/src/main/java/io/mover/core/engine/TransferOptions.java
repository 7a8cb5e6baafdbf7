package io.mover.core.engine;

import java.time.Duration;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * How a copy runs. Immutable; {@link #defaults()} gives what a user gets without options.
 *
 * @param concurrency files (or ranges of large files) in flight at once; when not {@code concurrencySet}, the start
 *        value ({@link #DEFAULT_CONCURRENCY}), which the run may replace by what its endpoints suggest
 *        ({@link io.mover.spi.FilesInFlight})
 * @param blockSize bytes per block read, encoded, checksummed and written
 * @param largeFileThreshold files at least this large are split into ranges moved in parallel
 * @param rangeSize the size of each range of a large file
 * @param includes globs a file's relative path must match (any of them) to be copied; empty means all
 * @param excludes globs that exclude a file or a whole directory
 * @param overwrite what to do with files that exist at the destination
 * @param symlinks what to do with symbolic links in the source
 * @param codec the codec spec ({@code auto}, the default: none for a local copy, chosen as it runs over a link; {@code none}, {@code lz4}, {@code zstd:3})
 * @param dryRun plan and report, change nothing
 * @param verify read every committed file back and compare its block checksums with the source's
 * @param maxRetries attempts after the first for a file failing with a retryable error
 * @param retryBackoff the first wait between attempts, doubled each time
 * @param bufferPoolBytes the hard cap on block buffer memory
 * @param progressInterval how often progress is reported
 * @param bandwidthCap bytes per second the job may write, across all its workers; 0 for no cap
 *        (changeable while the job runs, see {@link JobControls})
 * @param sync what a sync job compares, filters and deletes ({@link SyncOptions#DEFAULTS} for copies)
 * @param bench what a bench job measures ({@link BenchOptions#DEFAULTS} for other kinds)
 * @param concurrencySet whether the user gave {@code concurrency} ({@code --concurrency}, a REST job's
 *        {@code options.concurrency}, a stored job's options): only then is it kept whatever the endpoints suggest
 */
public record TransferOptions(int concurrency, int blockSize, long largeFileThreshold, long rangeSize,
        List<String> includes, List<String> excludes, OverwritePolicy overwrite, SymlinkPolicy symlinks,
        String codec, boolean dryRun, boolean verify, int maxRetries, Duration retryBackoff,
        long bufferPoolBytes, Duration progressInterval, long bandwidthCap, SyncOptions sync, BenchOptions bench,
        boolean concurrencySet) {
    public static final int MAX_CONCURRENCY = 1024;
    /** Files in flight when neither the user nor an endpoint says: measured best for local copies. */
    public static final int DEFAULT_CONCURRENCY = 16;

    public TransferOptions {
        includes = List.copyOf(requireNonNull(includes, "includes is null"));
        excludes = List.copyOf(requireNonNull(excludes, "excludes is null"));
        requireNonNull(overwrite, "overwrite is null");
        requireNonNull(symlinks, "symlinks is null");
        requireNonNull(codec, "codec is null");
        requireNonNull(retryBackoff, "retryBackoff is null");
        requireNonNull(progressInterval, "progressInterval is null");
        requireNonNull(sync, "sync is null");
        requireNonNull(bench, "bench is null");
    }

    public static TransferOptions defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        Builder b = new Builder();
        b.concurrency = concurrency;
        b.blockSize = blockSize;
        b.largeFileThreshold = largeFileThreshold;
        b.rangeSize = rangeSize;
        b.includes = includes;
        b.excludes = excludes;
        b.overwrite = overwrite;
        b.symlinks = symlinks;
        b.codec = codec;
        b.dryRun = dryRun;
        b.verify = verify;
        b.maxRetries = maxRetries;
        b.retryBackoff = retryBackoff;
        b.bufferPoolBytes = bufferPoolBytes;
        b.progressInterval = progressInterval;
        b.bandwidthCap = bandwidthCap;
        b.sync = sync;
        b.bench = bench;
        b.concurrencySet = concurrencySet;
        return b;
    }

    /** Builds options from the defaults; not thread-safe. */
    public static final class Builder {
        private int concurrency = DEFAULT_CONCURRENCY;
        private boolean concurrencySet;
        private int blockSize = 1 << 20;
        private long largeFileThreshold = 64L << 20;
        private long rangeSize = 32L << 20;
        private List<String> includes = List.of();
        private List<String> excludes = List.of();
        private OverwritePolicy overwrite = OverwritePolicy.TRUE;
        private SymlinkPolicy symlinks = SymlinkPolicy.SKIP;
        private String codec = "auto";
        private boolean dryRun;
        private boolean verify;
        private int maxRetries = 3;
        private Duration retryBackoff = Duration.ofMillis(200);
        private long bufferPoolBytes = 256L << 20;
        private Duration progressInterval = Duration.ofSeconds(2);
        private long bandwidthCap;
        private SyncOptions sync = SyncOptions.DEFAULTS;
        private BenchOptions bench = BenchOptions.DEFAULTS;

        private Builder() {}

        /** The user's concurrency: kept whatever the endpoints suggest. */
        public Builder concurrency(int value) { concurrency = value; concurrencySet = true; return this; }
        /** No concurrency given: {@link #DEFAULT_CONCURRENCY}, or what the endpoints suggest. */
        public Builder concurrencyNotSet() { concurrency = DEFAULT_CONCURRENCY; concurrencySet = false; return this; }
        public Builder blockSize(int value) { blockSize = value; return this; }
        public Builder largeFiles(long threshold, long range) { largeFileThreshold = threshold; rangeSize = range; return this; }
        public Builder includes(List<String> value) { includes = value; return this; }
        public Builder excludes(List<String> value) { excludes = value; return this; }
        public Builder overwrite(OverwritePolicy value) { overwrite = value; return this; }
        public Builder symlinks(SymlinkPolicy value) { symlinks = value; return this; }
        public Builder codec(String value) { codec = value; return this; }
        public Builder dryRun(boolean value) { dryRun = value; return this; }
        public Builder verify(boolean value) { verify = value; return this; }
        public Builder retries(int count, Duration firstBackoff) { maxRetries = count; retryBackoff = firstBackoff; return this; }
        public Builder bufferPoolBytes(long value) { bufferPoolBytes = value; return this; }
        public Builder progressInterval(Duration value) { progressInterval = value; return this; }
        public Builder bandwidthCap(long bytesPerSecond) { bandwidthCap = bytesPerSecond; return this; }
        public Builder sync(SyncOptions value) { sync = value; return this; }
        public Builder bench(BenchOptions value) { bench = value; return this; }

        public TransferOptions build() {
            return new TransferOptions(concurrency, blockSize, largeFileThreshold, rangeSize, includes, excludes, overwrite,
                    symlinks, codec, dryRun, verify, maxRetries, retryBackoff, bufferPoolBytes, progressInterval, bandwidthCap, sync, bench,
                    concurrencySet);
        }
    }

    /** Checks ranges; throws {@link io.mover.spi.MoverException} naming the first bad option. */
    public void validate() {
        check(concurrency >= 1 && concurrency <= MAX_CONCURRENCY, "concurrency", "between 1 and " + MAX_CONCURRENCY, concurrency);
        check(blockSize >= 4096 && blockSize <= io.mover.spi.BlockHeader.MAX_BLOCK_LENGTH / 2, "block-size", "between 4KiB and 32MiB", blockSize);
        check(rangeSize >= blockSize, "range size", "at least the block size", rangeSize);
        check(largeFileThreshold >= rangeSize, "large file threshold", "at least the range size", largeFileThreshold);
        check(maxRetries >= 0 && maxRetries <= 100, "retries", "between 0 and 100", maxRetries);
        check(bufferPoolBytes >= 2L * blockSize, "buffer pool", "at least two blocks", bufferPoolBytes);
        check(!progressInterval.isNegative() && !progressInterval.isZero(), "progress interval", "positive", progressInterval);
        JobControls.checkBandwidthCap(bandwidthCap);
        sync.validate();
    }

    private static void check(boolean ok, String option, String what, Object value) {
        if (!ok) {
            throw new io.mover.spi.MoverException(io.mover.spi.ErrorCode.INVALID_ARGUMENT,
                    "invalid " + option + " " + value + ": must be " + what);
        }
    }
}
