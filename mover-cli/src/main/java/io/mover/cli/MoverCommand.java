package io.mover.cli;

import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** The top of the command tree: {@code mover [--version|--help] COMMAND}. */
@Command(name = "mover",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "Moves files between local disks, peers and storage services, and says what limits the speed.",
        synopsisSubcommandLabel = "COMMAND",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:success: every file was transferred or skipped",
            "1:usage or user error: bad option, unknown scheme, destination inside the source",
            "2:the job finished, but some files failed",
            "3:the source was not found",
            "5:out of space, or a fatal destination error",
            "7:any other fatal error (also: server unreachable, token refused)",
            "130:cancelled (Ctrl-C)"},
        footer = "%nSee 'mover COMMAND --help' for a command's options, and docs/cli.md.")
final class MoverCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    /** {@code mover} alone: the usage, and the usage-error code, since nothing was asked for. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCode.USAGE.code();
    }
}
