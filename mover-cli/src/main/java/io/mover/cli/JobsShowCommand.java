package io.mover.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

import io.mover.server.job.web.JobResponse;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import static java.util.Objects.requireNonNull;

/** {@code mover jobs show ID}: what was asked, how far it got, and the summary a standalone run prints. */
@Command(name = "show", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = "Shows a job: its source, destination and options, its progress, and once it has ended the summary (per-stage table, bottleneck).")
final class JobsShowCommand implements Callable<Integer>, CliCommand {
    private final CliContext context;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "ID", description = "The job's id (from mover jobs list).")
    String id;

    @Mixin
    ServerOptions server = new ServerOptions();

    @Mixin
    CommonOptions common = new CommonOptions();

    JobsShowCommand(CliContext context) {
        this.context = requireNonNull(context, "context is null");
    }

    @Override
    public CommonOptions common() {
        return common;
    }

    /** Exit 0 whatever the job's state: the command worked; {@code watch} is the one that reports the job's outcome. */
    @Override
    public Integer call() {
        CliLogging.configureClient(common.effectiveLogLevel());
        JobResponse job = new ServerClient(server.target(context.environment())).get(id);
        PrintWriter out = spec.commandLine().getOut();
        if (common.json()) {
            out.println(ServerClient.JSON.writeValueAsString(job));
        }
        else {
            JobText.print(out, job);
        }
        out.flush();
        return ExitCode.SUCCESS.code();
    }
}
