package io.mover.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

import io.mover.core.engine.JobKind;
import io.mover.core.engine.JobSpec;
import io.mover.core.engine.JobSummary;
import io.mover.core.engine.OverwritePolicy;
import io.mover.core.engine.SymlinkPolicy;
import io.mover.core.engine.TransferOptions;
import io.mover.core.plugin.PluginRegistry;
import io.mover.core.service.EmbeddedJobService;
import io.mover.core.service.JobId;
import io.mover.core.service.JobService;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import static java.util.Objects.requireNonNull;

/** {@code mover copy SRC DST}: runs one copy job in this process and reports it. */
@Command(name = "copy", sortOptions = false, usageHelpAutoWidth = true,
        description = "Copies a file or a directory tree from SRC to DST (paths or URIs such as file:///data).",
        mixinStandardHelpOptions = true)
final class CopyCommand implements Callable<Integer>, CliCommand {
    private final CliContext context;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SRC", description = "What to copy: a directory (its contents are copied) or a file.")
    String source;

    @Parameters(index = "1", paramLabel = "DST", description = "Where to: the directory that receives the contents.")
    String destination;

    @Option(names = "--concurrency", paramLabel = "N", defaultValue = "16", description = "Files (or ranges of large files) in flight at once. Default: ${DEFAULT-VALUE}.")
    int concurrency;

    @Option(names = "--block-size", paramLabel = "SIZE", defaultValue = "1MiB", converter = Converters.Size.class,
            description = "Bytes per block read, checksummed and written, 4KiB to 32MiB (4MiB, 512k). Default: ${DEFAULT-VALUE}.")
    long blockSize;

    @Option(names = "--include", paramLabel = "GLOB", description = "Copy only files matching a glob (*.log, logs/**); repeatable, any match counts.")
    List<String> includes = new ArrayList<>();

    @Option(names = "--exclude", paramLabel = "GLOB", description = "Skip files and whole directories matching a glob; repeatable.")
    List<String> excludes = new ArrayList<>();

    @Option(names = "--overwrite", paramLabel = "true|false|if-source-newer", defaultValue = "true", converter = Converters.Overwrite.class,
            description = "What to do with files that exist at the destination. Default: ${DEFAULT-VALUE}.")
    OverwritePolicy overwrite;

    @Option(names = "--dry-run", description = "Print what would be copied; change nothing.")
    boolean dryRun;

    @Option(names = "--verify", description = "Read every copied file back and compare its checksums with the source's.")
    boolean verify;

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

    @Option(names = "--source-config", paramLabel = "KEY=VALUE", description = "A setting for the source plugin; repeatable.")
    Map<String, String> sourceConfig = new LinkedHashMap<>();

    @Option(names = "--dest-config", paramLabel = "KEY=VALUE", description = "A setting for the destination plugin; repeatable.")
    Map<String, String> destinationConfig = new LinkedHashMap<>();

    @Mixin
    CommonOptions common = new CommonOptions();

    // client mode (RemoteCopy): with --server or $MOVER_SERVER the job runs on that server
    @Mixin
    ServerOptions server = new ServerOptions();

    @Option(names = "--cancel-on-interrupt", description = "With --server: Ctrl-C cancels the job on the server instead of leaving it running.")
    boolean cancelOnInterrupt;

    CopyCommand(CliContext context) {
        this.context = requireNonNull(context, "context is null");
    }

    @Override
    public CommonOptions common() {
        return common;
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        Optional<ServerOptions.ServerTarget> remote = server.named(context.environment());
        if (remote.isPresent()) {
            TransferOptions options = options();
            return new RemoteCopy(context, remote.get(), common, this.spec.commandLine().getOut(), this.spec.commandLine().getErr())
                    .run(RemoteCopy.SubmitBody.copy(source, destination, options, sourceConfig, destinationConfig), options, cancelOnInterrupt);
        }
        CliLogging.configure(common.effectiveLogLevel());
        TransferOptions options = options();
        JobSpec spec = new JobSpec(JobKind.COPY, source, destination, sourceConfig, PeerOptions.destinationConfig(destination, destinationConfig, streams,
                context.environment()), options);
        PluginRegistry registry = CliPlugins.load(common.pluginDirectories);
        Path scratch = Files.createTempDirectory("mover-");
        try (JobService service = EmbeddedJobService.create(registry, scratch);
                JobOutput output = JobOutput.create(common, context.terminal(), options, this.spec.commandLine().getOut())) {
            JobId id = service.submit(spec, output).id();
            CancelOnShutdown hook = CancelOnShutdown.install(context.shutdownHooks(), service, id, this.spec.commandLine().getErr());
            try {
                JobSummary summary = awaitEnd(service, id);
                output.finished(summary);
                reportFailure(this.spec.commandLine().getErr(), summary);
                return ExitCode.of(summary).code();
            }
            finally {
                hook.close();
            }
        }
        finally {
            deleteQuietly(scratch);
        }
    }

    /** A failed job also says so on stderr, where a script's log and an operator look first. */
    static void reportFailure(java.io.PrintWriter err, JobSummary summary) {
        if (summary.error().isPresent()) {
            err.println("mover: " + summary.error().get());
        }
        else if (summary.filesFailed() > 0) {
            err.println("mover: " + summary.filesFailed() + " of " + summary.filesScanned() + " files failed; the summary lists the reasons");
        }
        err.flush();
    }

    TransferOptions options() {
        if (blockSize > Integer.MAX_VALUE) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "invalid block-size " + Units.bytes(blockSize) + ": must be between 4KiB and 32MiB");
        }
        TransferOptions defaults = TransferOptions.defaults();
        TransferOptions options = defaults.toBuilder()
                .concurrency(concurrency)
                .blockSize((int) blockSize)
                .includes(includes)
                .excludes(excludes)
                .overwrite(overwrite)
                .symlinks(symlinkPolicy())
                .codec(codec)
                .dryRun(dryRun)
                .verify(verify)
                .retries(retries, defaults.retryBackoff())
                .progressInterval(progressInterval)
                .bandwidthCap(capBytesPerSecond())
                .build();
        // the service checks again; checking here names the option before any plugin is loaded
        options.validate();
        return options;
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

    /** The job always ends (the engine bounds every wait), so waiting in steps keeps Ctrl-C responsive. */
    private static JobSummary awaitEnd(JobService service, JobId id) throws InterruptedException {
        while (true) {
            Optional<JobSummary> summary = service.await(id, Duration.ofSeconds(1));
            if (summary.isPresent()) {
                return summary.get();
            }
        }
    }

    private static void deleteQuietly(Path root) {
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
        catch (IOException | RuntimeException e) {
            // only our scratch directory under the system temp dir; leaving it is harmless
        }
    }
}
