package io.mover.cli;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;

import picocli.CommandLine;

/**
 * The {@code mover} entry point. Builds the command tree, runs it, exits with its code.
 * A new verb is one line in {@link #subcommands}.
 */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        boolean terminal = System.console() != null && System.console().isTerminal();
        CliContext context = new CliContext(terminal, true, System.getenv());
        PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
        PrintWriter err = new PrintWriter(System.err, true, StandardCharsets.UTF_8);
        System.exit(commandLine(context, out, err).execute(args));
    }

    private static List<Object> subcommands(CliContext context) {
        return List.of(
                new CopyCommand(context),
                new SyncCommand(context),
                new BenchCommand(context),
                new PluginsCommand(),
                JobsCommand.tree(context),
                SchedulesCommand.tree(context),
                new ServeCommand(),
                new ReceiveCommand(context));
    }

    /** The whole command tree, writing to {@code out} and {@code err}; tests run it in-process. */
    static CommandLine commandLine(CliContext context, PrintWriter out, PrintWriter err) {
        CommandLine commandLine = new CommandLine(new MoverCommand());
        for (Object subcommand : subcommands(context)) {
            commandLine.addSubcommand(subcommand);
        }
        CliErrors errors = new CliErrors();
        // set after the subcommands are added: picocli copies these settings down the tree at call time
        commandLine.setCaseInsensitiveEnumValuesAllowed(true)
                .setExecutionExceptionHandler(errors)
                .setParameterExceptionHandler(errors)
                .setOut(out)
                .setErr(err);
        return commandLine;
    }
}
