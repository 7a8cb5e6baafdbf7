package io.mover.cli;

import java.io.PrintWriter;

import io.mover.server.job.web.JobResponse;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import static java.util.Objects.requireNonNull;

/**
 * {@code mover jobs cancel|pause|resume ID}: one POST to the job, then its new state. One class for the
 * three verbs, which differ only in the path and the words.
 */
@Command(mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true)
final class JobActionCommand extends ServerCommand {
    enum Action {
        CANCEL("cancel", "Cancels a job: it stops at the next block boundary and its partial files are removed."),
        PAUSE("pause", "Pauses a running job; mover jobs resume continues it."),
        RESUME("resume", "Resumes a paused job.");

        private final String verb;
        private final String description;

        Action(String verb, String description) {
            this.verb = verb;
            this.description = description;
        }

        String verb() {
            return verb;
        }

        String description() {
            return description;
        }
    }

    private final Action action;

    @Parameters(index = "0", paramLabel = "ID", description = "The job's id (from mover jobs list).")
    String id;

    JobActionCommand(CliContext context, Action action) {
        super(context);
        this.action = requireNonNull(action, "action is null");
    }

    @Override
    int run(ServerClient client, PrintWriter out) {
        JobResponse job = client.act(id, action.verb());
        print(out, job, "job " + job.id() + ": " + job.state() + note(job));
        return ExitCode.SUCCESS.code();
    }

    /** A cancel is asynchronous: the job usually still runs when the server answers. */
    private String note(JobResponse job) {
        if (action == Action.CANCEL && !RestRecords.state(job.state()).isTerminal()) {
            return " (cancel requested: it stops at the next block boundary)";
        }
        return "";
    }
}
