package io.mover.cli;

import java.util.concurrent.Callable;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code mover jobs ...}: the jobs of a mover server ({@code --server}, {@code $MOVER_SERVER}, or the local default). */
@Command(name = "jobs", mixinStandardHelpOptions = true, synopsisSubcommandLabel = "COMMAND",
        description = "Lists, shows, watches, cancels, pauses and resumes the jobs of a mover server (default http://127.0.0.1:8080, or $MOVER_SERVER).")
final class JobsCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    /** The {@code jobs} command with its verbs; they need the context, so they are added here rather than by annotation. */
    static CommandLine tree(CliContext context) {
        CommandLine jobs = new CommandLine(new JobsCommand());
        jobs.addSubcommand(new JobsListCommand(context));
        jobs.addSubcommand(new JobsShowCommand(context));
        jobs.addSubcommand(new JobsWatchCommand(context));
        for (JobActionCommand.Action action : JobActionCommand.Action.values()) {
            CommandLine verb = new CommandLine(new JobActionCommand(context, action));
            verb.getCommandSpec().usageMessage().description(action.description());
            jobs.addSubcommand(action.verb(), verb);
        }
        return jobs;
    }

    /** {@code mover jobs} alone: the usage, and the usage-error code, as {@code mover} alone does. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCode.USAGE.code();
    }
}
