package io.mover.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;

import io.mover.core.engine.JobKind;
import io.mover.core.engine.JobSpec;
import io.mover.core.engine.JobSummary;
import io.mover.core.engine.Progress;
import io.mover.core.engine.SyncOptions;
import io.mover.core.engine.TransferOptions;
import io.mover.spi.MoverException;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import static java.util.Objects.requireNonNull;

/** {@code mover sync SRC DST}: makes DST hold what SRC holds, copying only what changed (issue 4). */
@Command(name = "sync", sortOptions = false, usageHelpAutoWidth = true,
        description = {"Makes DST equal to SRC: copies files that are new or changed (size, then modification time),",
                "and with --delete-destination true deletes what SRC does not have. Both sides are listed, never read."},
        mixinStandardHelpOptions = true)
final class SyncCommand implements Callable<Integer>, CliCommand {
    private final CliContext context;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SRC", description = "The directory to mirror.")
    String source;

    @Parameters(index = "1", paramLabel = "DST", description = "The directory made equal to SRC.")
    String destination;

    @Option(names = "--delete-destination", paramLabel = "true|false|prompt", defaultValue = "false", converter = DeleteConverter.class,
            description = "Delete files and folders at DST that SRC does not have: true, false, or prompt (ask once the plan is known). Default: ${DEFAULT-VALUE}.")
    SyncOptions.DeleteMode deletes;

    @Option(names = "--max-delete", paramLabel = "N", defaultValue = "-1",
            description = "Fail before deleting anything when the sync would delete more than N files; -1 for no limit. Default: ${DEFAULT-VALUE}.")
    long maxDelete;

    @Option(names = "--force", description = "Delete even when SRC lists no file at all (refused by default: an unmounted share looks like that).")
    boolean force;

    @Option(names = "--compare", paramLabel = "size-mtime|size-only|checksum", defaultValue = "size-mtime", converter = CompareConverter.class,
            description = "When a file at DST is unchanged: same size and modification time (within the coarser precision of the two sides),"
                    + " same size only, or same content hash (read where no endpoint stores one). Default: ${DEFAULT-VALUE}.")
    SyncOptions.ComparePolicy compare;

    @Option(names = "--size-only", description = "Same as --compare size-only.")
    boolean sizeOnly;

    @Option(names = "--files-from", paramLabel = "FILE", description = "Consider only the relative paths listed in FILE, one a line (# comments).")
    String filesFrom;

    @Option(names = "--min-size", paramLabel = "SIZE", defaultValue = "0", converter = Converters.Size.class, description = "Leave smaller files alone (on both sides).")
    long minSize;

    @Option(names = "--max-size", paramLabel = "SIZE", converter = Converters.Size.class, description = "Leave larger files alone (on both sides).")
    Long maxSize;

    @Option(names = "--min-age", paramLabel = "AGE", converter = AgeConverter.class, description = "Leave files modified more recently than AGE alone (30m, 12h, 7d).")
    Duration minAge;

    @Option(names = "--max-age", paramLabel = "AGE", converter = AgeConverter.class, description = "Leave files modified longer ago than AGE alone.")
    Duration maxAge;

    @Mixin
    TransferFlags flags = new TransferFlags();

    @Mixin
    CommonOptions common = new CommonOptions();

    @Mixin
    RemoteFlags remote = new RemoteFlags();

    SyncCommand(CliContext context) {
        this.context = requireNonNull(context, "context is null");
    }

    @Override
    public CommonOptions common() {
        return common;
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        TransferOptions options = options();
        Optional<ServerOptions.ServerTarget> server = remote.named(context.environment());
        if (server.isPresent()) {
            if (options.sync().deletes() == SyncOptions.DeleteMode.PROMPT) {
                throw new MoverException(io.mover.spi.ErrorCode.INVALID_ARGUMENT,
                        "--delete-destination prompt needs this terminal, and the job runs on the server; use true with --max-delete, or run without --server");
            }
            return new RemoteCopy(context, server.get(), common, spec.commandLine().getOut(), spec.commandLine().getErr())
                    .run(RemoteCopy.SubmitBody.sync(source, destination, options, flags.sourceConfig, flags.destinationConfig), options, remote.cancelOnInterrupt);
        }
        JobSpec job = new JobSpec(JobKind.SYNC, source, destination, flags.sourceConfig, flags.destinationConfigHere(destination, context.environment()),
                options);
        return CopyCommand.runHere(context, common, job, spec, output -> new Prompting(output, spec.commandLine().getErr()));
    }

    TransferOptions options() {
        SyncOptions sync = new SyncOptions(deletes, maxDelete, sizeOnly ? SyncOptions.ComparePolicy.SIZE_ONLY : compare, force,
                Optional.ofNullable(filesFrom), minSize, maxSize == null ? -1 : maxSize, Optional.ofNullable(minAge), Optional.ofNullable(maxAge));
        TransferOptions options = flags.options().sync(sync).build();
        options.validate();
        return options;
    }

    /** The job's output, which also asks on the terminal before deleting ({@code --delete-destination prompt}). */
    private static final class Prompting implements JobOutput {
        private final JobOutput output;
        private final PrintWriter err;

        Prompting(JobOutput output, PrintWriter err) {
            this.output = output;
            this.err = err;
        }

        @Override
        public boolean confirmDeletes(long files) {
            java.io.Console console = System.console();
            if (console == null) {
                err.println("mover: --delete-destination prompt needs a terminal to ask on; the " + files + " deletes were skipped");
                err.flush();
                return false;
            }
            err.print("mover: delete " + files + " files at the destination that the source does not have? [y/N] ");
            err.flush();
            try {
                String answer = new BufferedReader(new InputStreamReader(System.in, Charset.defaultCharset())).readLine();
                return answer != null && answer.trim().toLowerCase(Locale.ROOT).startsWith("y");
            }
            catch (IOException e) {
                return false;
            }
        }

        @Override
        public void onProgress(Progress progress) {
            output.onProgress(progress);
        }

        @Override
        public void onDryRun(String action, String path, long size) {
            output.onDryRun(action, path, size);
        }

        @Override
        public void finished(JobSummary summary) {
            output.finished(summary);
        }

        @Override
        public void close() {
            output.close();
        }
    }

    static final class DeleteConverter implements ITypeConverter<SyncOptions.DeleteMode> {
        @Override
        public SyncOptions.DeleteMode convert(String value) {
            return Converters.parsed(() -> SyncOptions.DeleteMode.parse(value));
        }
    }

    static final class CompareConverter implements ITypeConverter<SyncOptions.ComparePolicy> {
        @Override
        public SyncOptions.ComparePolicy convert(String value) {
            return Converters.parsed(() -> SyncOptions.ComparePolicy.parse(value));
        }
    }

    /** An age: {@code 7d} for days, or any duration {@code --progress-interval} takes. */
    static final class AgeConverter implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            String trimmed = value.trim();
            if (trimmed.matches("\\d+(\\.\\d+)?[dD]")) {
                return Duration.ofSeconds((long) (Double.parseDouble(trimmed.substring(0, trimmed.length() - 1)) * 86_400));
            }
            return new Converters.Interval().convert(value);
        }
    }
}
