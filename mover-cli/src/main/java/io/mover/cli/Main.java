package io.mover.cli;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

import picocli.CommandLine;

/**
 * The {@code mover} entry point. Builds the command tree, runs it, exits with its code.
 * A new verb is one line in {@link #subcommands}.
 */
public final class Main {
    /** The JDK's setting for how many carrier threads run virtual threads (default: one per core). */
    static final String CARRIERS = "jdk.virtualThreadScheduler.parallelism";
    /** Carriers per core: see {@link #carriers}. */
    static final int CARRIERS_PER_CORE = 4;
    /** The JDK scheduler's default ceiling on carriers ({@code jdk.virtualThreadScheduler.maxPoolSize}). */
    static final int MAX_CARRIERS = 256;

    private Main() {}

    public static void main(String[] args) {
        carriers(Runtime.getRuntime().availableProcessors());
        boolean terminal = System.console() != null && System.console().isTerminal();
        CliContext context = new CliContext(terminal, true, System.getenv());
        PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
        PrintWriter err = new PrintWriter(System.err, true, StandardCharsets.UTF_8);
        System.exit(commandLine(context, out, err, args).execute(args));
    }

    /**
     * More carriers for virtual threads than cores, unless {@code -Djdk.virtualThreadScheduler.parallelism} says otherwise;
     * set before the first virtual thread starts, which creates the scheduler. The plugins' file system calls (the local
     * disk's, through the foreign function API) hold their carrier while they wait for the disk, and the JDK lends a
     * spare carrier only to its own I/O: with one carrier per core, a sync of 100,000 small files from a cold cache had
     * its carriers waiting on reads half the time while work queued (8.5-11.6 s; with 8 or 16 carriers on 2 cores 6.4-8.7 s,
     * docs/benchmarks.md).
     */
    static void carriers(int cores) {
        if (System.getProperty(CARRIERS) == null) {
            System.setProperty(CARRIERS, Integer.toString(Math.min(MAX_CARRIERS, Math.max(1, cores) * CARRIERS_PER_CORE)));
        }
    }

    /** Each verb's command, built only when needed: picocli reads a command's annotations when it is added. */
    private static Map<String, Supplier<Object>> subcommands(CliContext context) {
        Map<String, Supplier<Object>> verbs = new LinkedHashMap<>();
        verbs.put("copy", () -> new CopyCommand(context));
        verbs.put("sync", () -> new SyncCommand(context));
        verbs.put("bench", () -> new BenchCommand(context));
        verbs.put("plugins", PluginsCommand::new);
        verbs.put("jobs", () -> JobsCommand.tree(context));
        verbs.put("schedules", () -> SchedulesCommand.tree(context));
        verbs.put("serve", ServeCommand::new);
        verbs.put("receive", () -> new ReceiveCommand(context));
        return verbs;
    }

    /** The whole command tree, writing to {@code out} and {@code err}; tests run it in-process. */
    static CommandLine commandLine(CliContext context, PrintWriter out, PrintWriter err) {
        return commandLine(context, out, err, new String[0]);
    }

    /**
     * The tree for running {@code args}: only the verb named first when it is one (reflecting over every
     * command cost a short job a tenth of a second of CPU), none for {@code --version} alone (the same cost,
     * half of its CPU, for a line the verbs have no part in), the whole tree otherwise (help, suggestions).
     */
    static CommandLine commandLine(CliContext context, PrintWriter out, PrintWriter err, String[] args) {
        CommandLine commandLine = new CommandLine(new MoverCommand());
        Map<String, Supplier<Object>> verbs = subcommands(context);
        Supplier<Object> named = args.length > 0 ? verbs.get(args[0]) : null;
        if (named != null) {
            commandLine.addSubcommand(args[0], named.get());
        }
        else if (!(args.length == 1 && (args[0].equals("--version") || args[0].equals("-V")))) {
            verbs.forEach((name, verb) -> commandLine.addSubcommand(name, verb.get()));
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
