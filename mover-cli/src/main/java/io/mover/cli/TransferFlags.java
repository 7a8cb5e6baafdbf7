package io.mover.cli;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.mover.core.engine.SymlinkPolicy;
import io.mover.core.engine.TransferOptions;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The options of every command that moves files ({@code copy}, {@code sync}), mixed into each. */
final class TransferFlags {
    /** Null when not given: the destination (or source) may then suggest its own (SPI FilesInFlight). */
    @Option(names = "--concurrency", paramLabel = "N", description = "Files (or ranges of large files) in flight at once, 1 to 1024. "
            + "Default: 16, or what the destination suggests (Azure Files: 64), bounded by the buffer pool; the summary says which.")
    Integer concurrency;

    @Option(names = "--block-size", paramLabel = "SIZE", defaultValue = "1MiB", converter = Converters.Size.class,
            description = "Bytes per block read, checksummed and written, 4KiB to 32MiB (4MiB, 512k). Default: ${DEFAULT-VALUE}.")
    long blockSize;

    @Option(names = "--include", paramLabel = "GLOB", description = "Only files matching a glob (*.log, logs/**); repeatable, any match counts.")
    List<String> includes = new ArrayList<>();

    @Option(names = "--exclude", paramLabel = "GLOB", description = "Leave out files and whole directories matching a glob; repeatable.")
    List<String> excludes = new ArrayList<>();

    @Option(names = "--dry-run", description = "Print what would be changed; change nothing.")
    boolean dryRun;

    @ArgGroup(exclusive = true, multiplicity = "0..1")
    Symlinks symlinks;

    static final class Symlinks {
        @Option(names = "--follow-symlinks", description = "Copy what symbolic links point to.")
        boolean follow;

        @Option(names = "--preserve-symlinks", description = "Recreate symbolic links as links. Without either option links are skipped.")
        boolean preserve;
    }

    @Option(names = "--codec", paramLabel = "CODEC", defaultValue = "auto",
            description = "Codec where bytes cross a link: auto (chosen from the data and the link as it runs; none for a local copy), none, lz4, snappy, lzo, zstd[:level], gzip[:level]. Default: ${DEFAULT-VALUE}.")
    String codec;

    @Option(names = "--retries", paramLabel = "N", defaultValue = "3", description = "Attempts after the first for a file failing with a transient error. Default: ${DEFAULT-VALUE}.")
    int retries;

    @Option(names = "--cap-mbps", paramLabel = "N", defaultValue = "0",
            description = "Cap the job's write rate at N megabits per second across all its workers (100 = 12.5 MB/s); 0 for no cap. Default: ${DEFAULT-VALUE}.")
    double capMbps;

    @Option(names = "--progress-interval", paramLabel = "DURATION", defaultValue = "2s", converter = Converters.Interval.class,
            description = "How often progress is reported (500ms, 2s, 1m). Default: ${DEFAULT-VALUE}.")
    Duration progressInterval;

    @Option(names = "--streams", paramLabel = "N",
            description = "With a tcp:// destination: parallel TCP connections to the receiver (1 to 64). Default: 4.")
    Optional<Integer> streams = Optional.empty();

    @Mixin
    PeerTlsFlags.Sender tls = new PeerTlsFlags.Sender();

    @Option(names = "--source-config", paramLabel = "KEY=VALUE", description = "A setting for the source plugin; repeatable.")
    Map<String, String> sourceConfig = new LinkedHashMap<>();

    @Option(names = "--dest-config", paramLabel = "KEY=VALUE", description = "A setting for the destination plugin; repeatable.")
    Map<String, String> destinationConfig = new LinkedHashMap<>();

    /**
     * The destination plugin's settings for a job run in this process: with a {@code tcp://} destination,
     * {@code --streams} and the peer token from the environment join them (a job sent to a server does not
     * carry this shell's token).
     */
    Map<String, String> destinationConfigHere(String destination, Map<String, String> environment) {
        return PeerOptions.destinationConfig(destination, destinationConfig, streams, tls, environment);
    }

    /** The engine options these flags ask for, from the defaults; the command adds its own. */
    TransferOptions.Builder options() {
        if (blockSize > Integer.MAX_VALUE) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "invalid block-size " + Units.bytes(blockSize) + ": must be between 4KiB and 32MiB");
        }
        TransferOptions defaults = TransferOptions.defaults();
        TransferOptions.Builder builder = defaults.toBuilder();
        if (concurrency != null) {
            builder.concurrency(concurrency);
        }
        return builder
                .blockSize((int) blockSize)
                .includes(includes)
                .excludes(excludes)
                .symlinks(symlinkPolicy())
                .codec(codec)
                .dryRun(dryRun)
                .retries(retries, defaults.retryBackoff())
                .progressInterval(progressInterval)
                .bandwidthCap(capBytesPerSecond());
    }

    /** Megabits per second, as links are sized, to the engine's bytes per second (1 Mbps = 125,000 bytes/s). */
    private long capBytesPerSecond() {
        if (capMbps == 0) {
            return 0;
        }
        if (!(capMbps >= 0.01 && capMbps <= 8_000_000)) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "invalid --cap-mbps " + capMbps + ": must be 0 (no cap) or between 0.01 and 8000000");
        }
        return Math.round(capMbps * 125_000);
    }

    private SymlinkPolicy symlinkPolicy() {
        if (symlinks == null) {
            return SymlinkPolicy.SKIP;
        }
        return symlinks.follow ? SymlinkPolicy.FOLLOW : SymlinkPolicy.PRESERVE;
    }
}
