package io.mover.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

import io.mover.bench.BenchReport;
import io.mover.bench.HtmlReport;
import io.mover.bench.IoBench;
import io.mover.bench.IoSettings;
import io.mover.bench.JsonReport;
import io.mover.bench.TextReport;
import io.mover.bench.TransferBench;
import io.mover.bench.TransferSettings;
import io.mover.core.engine.CancellationToken;
import io.mover.core.plugin.PluginRegistry;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import static java.util.Objects.requireNonNull;

/** {@code mover bench TARGET}: measures a target with generated data and says what limits it (docs/bench.md). */
@Command(name = "bench", sortOptions = false, usageHelpAutoWidth = true, mixinStandardHelpOptions = true,
        description = {"Measures TARGET before a migration. Transfer mode (default) writes generated files into its own folder there, "
                + "reads them back and sweeps the concurrency: throughput, files/s, stages, latency percentiles, the bottleneck and the "
                + "options to use; it deletes what it wrote unless --keep.",
                "A tcp://HOST:PORT/path target (a running 'mover receive') is swept over --streams x --codecs instead, written only, "
                + "and the report recommends the streams and codec to use.",
                "--mode io runs fio-like four-corner tests (64 KiB sequential, 8 KiB random, read and write) at queue depths 1 to 64 "
                + "and a block-size sweep of writes."})
final class BenchCommand implements Callable<Integer> {
    enum Mode { TRANSFER, IO }

    private final CliContext context;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "TARGET", description = "Where to measure: a directory path or a URI.")
    String target;

    @Option(names = "--mode", paramLabel = "transfer|io", defaultValue = "transfer", converter = ModeConverter.class,
            description = "What to measure. Default: ${DEFAULT-VALUE}.")
    Mode mode;

    static final class ModeConverter implements picocli.CommandLine.ITypeConverter<Mode> {
        @Override
        public Mode convert(String value) {
            return switch (value.toLowerCase(java.util.Locale.ROOT)) {
                case "transfer" -> Mode.TRANSFER;
                case "io" -> Mode.IO;
                default -> throw new picocli.CommandLine.TypeConversionException("'" + value + "' is not a mode: use transfer or io");
            };
        }
    }

    @Option(names = "--files", paramLabel = "N", defaultValue = "1000", description = "Transfer: files written per concurrency tried. Default: ${DEFAULT-VALUE}.")
    long files;

    @Option(names = "--size", paramLabel = "SIZE", defaultValue = "1MiB", converter = Converters.Size.class,
            description = "Transfer: bytes per file. Default: ${DEFAULT-VALUE}.")
    long size;

    @Option(names = "--data", paramLabel = "KIND", defaultValue = "random", description = "Transfer: zeros, random, text or mixed (how compressible). Default: ${DEFAULT-VALUE}.")
    String data;

    @Option(names = "--concurrency", paramLabel = "N,N,...", split = ",", description = "Transfer: the concurrencies to try. Default: 1,4,16,64.")
    List<Integer> concurrencies = new ArrayList<>(List.of(1, 4, 16, 64));

    @Option(names = "--block-size", paramLabel = "SIZE", defaultValue = "1MiB", converter = Converters.Size.class,
            description = "Transfer: the engine's block size. Default: ${DEFAULT-VALUE}.")
    long blockSize;

    @Option(names = "--codec", paramLabel = "CODEC", defaultValue = "none", description = "Transfer: codec, as for copy. Default: ${DEFAULT-VALUE}.")
    String codec;

    @Option(names = "--streams", paramLabel = "N,N,...", split = ",",
            description = "tcp:// targets: the TCP stream counts to try, each with every --codecs. Default: 1,2,4,8.")
    List<Integer> streams = new ArrayList<>(io.mover.core.engine.BenchOptions.DEFAULTS.streams());

    @Option(names = "--codecs", paramLabel = "CODEC,...", split = ",",
            description = "tcp:// targets: the codecs to try (instead of --codec). Default: none,lz4,zstd:1,auto.")
    List<String> codecs = new ArrayList<>(io.mover.core.engine.BenchOptions.DEFAULTS.codecs());

    @Option(names = "--keep", description = "Keep the files written instead of deleting them.")
    boolean keep;

    @Option(names = "--folder", paramLabel = "NAME", defaultValue = TransferSettings.DEFAULT_FOLDER,
            description = "The bench's folder in TARGET; one that exists without mover's marker is refused. Default: ${DEFAULT-VALUE}.")
    String folder;

    @Option(names = "--queue-depths", paramLabel = "N,N,...", split = ",", description = "IO: queue depths. Default: 1,2,4,8,16,32,64.")
    List<Integer> queueDepths = new ArrayList<>(List.of(1, 2, 4, 8, 16, 32, 64));

    @Option(names = "--io-size", paramLabel = "SIZE", defaultValue = "1GiB", converter = Converters.Size.class,
            description = "IO: size of the test file. Default: ${DEFAULT-VALUE}.")
    long ioSize;

    @Option(names = "--runtime", paramLabel = "DURATION", defaultValue = "2s", converter = Converters.Interval.class,
            description = "IO: how long each pattern runs at each depth. Default: ${DEFAULT-VALUE}.")
    Duration runtime;

    @Option(names = "--write-block-sizes", paramLabel = "SIZE,...", split = ",", converter = Converters.Size.class,
            description = "IO: block sizes of the sequential-write sweep. Default: 4KiB,16KiB,64KiB,256KiB,1MiB,4MiB.")
    List<Long> writeBlockSizes = new ArrayList<>(List.of(4096L, 16384L, 65536L, 262144L, 1L << 20, 4L << 20));

    @Option(names = "--html", paramLabel = "FILE", description = "Also write a self-contained HTML report with charts to FILE.")
    Path html;

    @Option(names = "--dest-config", paramLabel = "KEY=VALUE", description = "A setting for the target's plugin; repeatable.")
    Map<String, String> targetConfig = new LinkedHashMap<>();

    @Mixin
    CommonOptions common = new CommonOptions();

    // with --server or $MOVER_SERVER the bench runs on that server, as copy does
    @Mixin
    ServerOptions server = new ServerOptions();

    BenchCommand(CliContext context) {
        this.context = requireNonNull(context, "context is null");
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        PrintWriter err = spec.commandLine().getErr();
        Optional<ServerOptions.ServerTarget> remote = server.named(context.environment());
        BenchReport report;
        if (remote.isPresent()) {
            if (!target.contains("://")) {
                target = Path.of(target).toAbsolutePath().normalize().toString();
            }
            report = new RemoteBench(new ServerClient(remote.get()), err).run(RemoteBench.body(this));
        }
        else {
            CliLogging.configure(common.effectiveLogLevel());
            report = local(err);
        }
        PrintWriter out = spec.commandLine().getOut();
        if (common.json()) {
            out.println(JsonReport.of(report));
            out.flush();
        }
        else {
            TextReport.write(report, out);
        }
        if (html != null) {
            Files.writeString(html, HtmlReport.of(report));
            err.println("mover: HTML report written to " + html);
        }
        return ExitCode.SUCCESS.code();
    }

    /** Runs the bench in this process; Ctrl-C cancels it, and it removes what it wrote. */
    private BenchReport local(PrintWriter err) throws IOException {
        PluginRegistry registry = CliPlugins.load(common.pluginDirectories);
        Path scratch = Files.createTempDirectory("mover-bench-");
        CancellationToken cancellation = new CancellationToken();
        Thread hook = new Thread(cancellation::cancel);
        if (context.shutdownHooks()) {
            Runtime.getRuntime().addShutdownHook(hook);
        }
        try {
            return switch (mode) {
                case TRANSFER -> new TransferBench(registry, Clock.systemUTC(), scratch).run(new TransferSettings(target, peerConfig(), files, size,
                        data, concurrencies, Math.toIntExact(Math.min(blockSize, Integer.MAX_VALUE)), codec, keep, folder, streams, codecs),
                        (line, step, steps) -> progress(err, line), cancellation);
                case IO -> new IoBench(registry, Clock.systemUTC(), scratch).run(new IoSettings(target, targetConfig, ioSize, queueDepths,
                        writeBlockSizes, runtime, keep, folder), (line, step, steps) -> progress(err, line), cancellation);
            };
        }
        finally {
            if (context.shutdownHooks()) {
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                }
                catch (IllegalStateException shuttingDown) {
                    // the hook is running: the bench was cancelled
                }
            }
            Files.deleteIfExists(scratch);
        }
    }

    /** The target's settings, with the receiver's token from $MOVER_PEER_TOKEN for a tcp:// target (as copy does). */
    private Map<String, String> peerConfig() {
        // TLS settings for a bench target go in --target-config (tls=true, tls-fingerprint=...)
        return PeerOptions.destinationConfig(target, targetConfig, Optional.empty(), new PeerTlsFlags.Sender(), context.environment());
    }

    /** Phase lines go to stderr, so that stdout holds only the report (text or JSON). */
    private void progress(PrintWriter err, String line) {
        if (common.logLevel.compareTo(CliLogging.Level.ERROR) > 0 || common.debug) {
            err.println("mover: " + line);
            err.flush();
        }
    }
}
