package io.mover.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

import io.mover.cli.ServerOptions.ServerTarget;
import io.mover.core.engine.JobSummary;
import io.mover.server.job.web.JobResponse;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import static java.util.Objects.requireNonNull;

/** {@code mover jobs watch ID}: follows a server's job as {@code mover copy} shows its own, to the same summary and exit code. */
@Command(name = "watch", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = "Follows a job to its end: progress, then the summary; exits with the job's exit code (see mover --help). Ctrl-C stops watching, not the job.")
final class JobsWatchCommand implements Callable<Integer> {
    private final CliContext context;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "ID", description = "The job's id (from mover jobs list).")
    String id;

    @Option(names = "--cancel-on-interrupt", description = "Ctrl-C cancels the job on the server instead of leaving it running.")
    boolean cancelOnInterrupt;

    @Mixin
    ServerOptions server = new ServerOptions();

    @Mixin
    CommonOptions common = new CommonOptions();

    JobsWatchCommand(CliContext context) {
        this.context = requireNonNull(context, "context is null");
    }

    @Override
    public Integer call() throws InterruptedException {
        CliLogging.configureClient(common.effectiveLogLevel());
        ServerTarget target = server.target(context.environment());
        ServerClient client = new ServerClient(target);
        // asked first: an unknown id is one line and exit 3 before any stream is opened, and the spec says if it is a dry run
        JobResponse job = client.get(id);
        boolean dryRun = job.spec() != null && job.spec().options() != null && job.spec().options().dryRun();
        PrintWriter err = spec.commandLine().getErr();
        try (DetachOnShutdown hook = DetachOnShutdown.install(context.shutdownHooks(), cancelOnInterrupt, client, job.id(), err);
                JobOutput output = JobOutput.create(common, context.terminal(), dryRun, spec.commandLine().getOut())) {
            JobSummary summary = new JobFollower(client, new ServerEvents(target), err).follow(job.id(), output);
            output.finished(summary);
            CopyCommand.reportFailure(err, summary);
            return ExitCode.of(summary).code();
        }
    }
}
