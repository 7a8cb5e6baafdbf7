package io.mover.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import static java.util.Objects.requireNonNull;

/**
 * What every command that only talks to a server shares: the server and token options, the common options, and
 * printing either JSON or text. Subclasses implement {@link #run(ServerClient, PrintWriter)}.
 */
abstract class ServerCommand implements Callable<Integer> {
    private final CliContext context;

    @Spec
    CommandSpec spec;

    @Mixin
    ServerOptions server = new ServerOptions();

    @Mixin
    CommonOptions common = new CommonOptions();

    ServerCommand(CliContext context) {
        this.context = requireNonNull(context, "context is null");
    }

    @Override
    public final Integer call() {
        CliLogging.configureClient(common.effectiveLogLevel());
        PrintWriter out = spec.commandLine().getOut();
        int code = run(new ServerClient(server.target(context.environment())), out);
        out.flush();
        return code;
    }

    /** Does the command's requests; returns its exit code. */
    abstract int run(ServerClient client, PrintWriter out);

    /** {@code json} as JSON with {@code --output json}, else {@code text}. */
    void print(PrintWriter out, Object json, String text) {
        out.println(common.json() ? ServerClient.JSON.writeValueAsString(json) : text);
    }
}
