package io.mover.cli;

import java.io.PrintWriter;

import io.mover.server.job.web.JobResponse;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code mover jobs show ID}: what was asked, how far it got, and the summary a standalone run prints. */
@Command(name = "show", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = "Shows a job: its source, destination and options, its progress, and once it has ended the summary (per-stage table, bottleneck).")
final class JobsShowCommand extends ServerCommand {
    @Parameters(index = "0", paramLabel = "ID", description = "The job's id (from mover jobs list).")
    String id;

    JobsShowCommand(CliContext context) {
        super(context);
    }

    /** Exit 0 whatever the job's state: the command worked; {@code watch} is the one that reports the job's outcome. */
    @Override
    int run(ServerClient client, PrintWriter out) {
        JobResponse job = client.get(id);
        if (common.json()) {
            print(out, job, "");
        }
        else {
            JobText.print(out, job);
        }
        return ExitCode.SUCCESS.code();
    }
}
