package io.mover.cli;

import java.io.PrintWriter;
import java.util.Optional;

import io.mover.server.job.web.JobPage;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code mover jobs list}: the server's jobs, newest first, as a table or JSON. */
@Command(name = "list", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = "Lists the server's jobs, newest first: id, state, created, progress, throughput, source and destination.")
final class JobsListCommand extends ServerCommand {
    @Option(names = "--state", paramLabel = "STATE",
            description = "Only jobs in this state: queued, running, paused, succeeded, completed_with_errors, failed, cancelled.")
    String state;

    @Option(names = "--kind", paramLabel = "KIND", description = "Only jobs of this kind: copy, sync or bench.")
    String kind;

    @Option(names = "--schedule", paramLabel = "NAME", description = "Only the jobs a schedule started (its name or id, from mover schedules list).")
    String schedule;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "50", description = "At most N jobs, 1 to 500. Default: ${DEFAULT-VALUE}.")
    int limit;

    JobsListCommand(CliContext context) {
        super(context);
    }

    @Override
    int run(ServerClient client, PrintWriter out) {
        // a schedule's name becomes its id here: the server filters jobs by id
        Optional<String> scheduleId = Optional.ofNullable(schedule).filter(s -> !s.isBlank()).map(s -> client.schedule(s).id());
        JobPage page = client.list(Optional.ofNullable(state).filter(s -> !s.isBlank()), Optional.ofNullable(kind).filter(k -> !k.isBlank()),
                scheduleId, limit);
        if (common.json()) {
            print(out, page, "");
        }
        else {
            JobTable.print(out, page.items());
            if (page.hasMore()) {
                out.println("(more jobs: raise --limit, up to 500)");
            }
        }
        return ExitCode.SUCCESS.code();
    }
}
