package io.mover.cli;

import java.util.Map;
import java.util.Optional;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Client mode of the commands that run a job ({@code copy}, {@code sync}): with {@code --server} or $MOVER_SERVER the job runs there. */
final class RemoteFlags {
    @Mixin
    ServerOptions server = new ServerOptions();

    @Option(names = "--cancel-on-interrupt", description = "With --server: Ctrl-C cancels the job on the server instead of leaving it running.")
    boolean cancelOnInterrupt;

    Optional<ServerOptions.ServerTarget> named(Map<String, String> environment) {
        return server.named(environment);
    }
}
