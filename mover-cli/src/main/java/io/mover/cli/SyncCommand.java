package io.mover.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.Charset;
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
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import static java.util.Objects.requireNonNull;

/** {@code mover sync SRC DST}: makes DST hold what SRC holds, copying only what changed (issue 4). */
@Command(name = "sync", sortOptions = false, usageHelpAutoWidth = true,
        description = {"Makes DST equal to SRC: copies files that are new or changed (size, then modification time),",
                "and with --delete-destination true deletes what SRC does not have. Both sides are listed, never read."},
        mixinStandardHelpOptions = true)
final class SyncCommand implements Callable<Integer> {
    private final CliContext context;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SRC", description = "The directory to mirror.")
    String source;

    @Parameters(index = "1", paramLabel = "DST", description = "The directory made equal to SRC.")
    String destination;

    @Mixin
    SyncFlags sync = new SyncFlags();

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
        TransferOptions options = flags.options().sync(sync.options()).build();
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
}
