package io.mover.cli;

import java.io.IOException;
import java.io.PrintWriter;
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
final class CopyCommand implements Callable<Integer> {
    private final CliContext context;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SRC", description = "What to copy: a directory (its contents are copied) or a file.")
    String source;

    @Parameters(index = "1", paramLabel = "DST", description = "Where to: the directory that receives the contents.")
    String destination;

    @Mixin
    TransferFlags flags = new TransferFlags();

    @Option(names = "--overwrite", paramLabel = "true|false|if-source-newer", defaultValue = "true", converter = Converters.Overwrite.class,
            description = "What to do with files that exist at the destination. Default: ${DEFAULT-VALUE}.")
    OverwritePolicy overwrite;

    @Option(names = "--verify", description = "Read every copied file back and compare its checksums with the source's.")
    boolean verify;

    @Option(names = "--format", paramLabel = "FORMAT",
            description = "With a tcp:// destination: mover (the peer protocol, the default), or one plain tar stream for 'nc -l PORT | zstd -d | tar x':"
                    + " tar, tar+zstd[:level], tar+lz4, tar+gzip[:level] (see docs/tar-interop.md).")
    Optional<String> format = Optional.empty();

    @Mixin
    CommonOptions common = new CommonOptions();

    @Mixin
    RemoteFlags remote = new RemoteFlags();

    CopyCommand(CliContext context) {
        this.context = requireNonNull(context, "context is null");
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        TransferOptions options = options();
        if (format.isPresent() && PeerOptions.isTar(format.get()) && overwrite != OverwritePolicy.TRUE) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "--overwrite " + overwrite.cliName()
                    + " needs to see what the destination has, and a tar stream cannot; drop it (tar x replaces files)");
        }
        Optional<ServerOptions.ServerTarget> server = remote.named(context.environment());
        if (server.isPresent()) {
            // a server runs a tar format as one unit on one connection (docs/tar-interop.md)
            Map<String, String> destinationConfig = PeerOptions.withFormat(destination, flags.destinationConfig, flags.destinationConfig, flags.streams, format);
            return new RemoteCopy(context, server.get(), common, this.spec.commandLine().getOut(), this.spec.commandLine().getErr())
                    .run(RemoteCopy.SubmitBody.copy(source, destination, options, flags.sourceConfig, destinationConfig), options, remote.cancelOnInterrupt);
        }
        Map<String, String> destinationConfig = PeerOptions.withFormat(destination, flags.destinationConfigHere(destination, context.environment()),
                flags.destinationConfig, flags.streams, format);
        JobSpec spec = new JobSpec(JobKind.COPY, source, destination, flags.sourceConfig, destinationConfig, options);
        return runHere(context, common, spec, this.spec, output -> output);
    }

    /**
     * Runs {@code spec} on an embedded job service in this process, shown by {@code decorate(output)},
     * and returns the exit code; Ctrl-C cancels the job and prints its summary.
     */
    static int runHere(CliContext context, CommonOptions common, JobSpec spec, CommandSpec command,
            java.util.function.UnaryOperator<JobOutput> decorate) throws IOException, InterruptedException {
        CliLogging.configure(common.effectiveLogLevel());
        PluginRegistry registry = CliPlugins.load(common.pluginDirectories);
        Path scratch = Files.createTempDirectory("mover-");
        PrintWriter err = command.commandLine().getErr();
        try (JobService service = EmbeddedJobService.create(registry, scratch);
                JobOutput output = decorate.apply(JobOutput.create(common, context.terminal(), spec.options(), command.commandLine().getOut()))) {
            JobId id = service.submit(spec, output).id();
            CancelOnShutdown hook = CancelOnShutdown.install(context.shutdownHooks(), service, id, err);
            try {
                JobSummary summary = awaitEnd(service, id);
                output.finished(summary);
                reportFailure(err, summary);
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
        TransferOptions options = flags.options().overwrite(overwrite).verify(verify).build();
        // the service checks again; checking here names the option before any plugin is loaded
        options.validate();
        return options;
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
