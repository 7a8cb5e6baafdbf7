package io.mover.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;

import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code mover serve}: the REST job service in this process, until SIGTERM or Ctrl-C. The options are
 * shorthands for the server's properties ({@code docs/rest.md}); anything else, tokens included, comes
 * from {@code --config FILE}, {@code MOVER_*} environment variables or an {@code application.properties}
 * in the working directory, so no secret has to appear on a command line. The server itself is started by
 * {@link ServeRun}, so this class names no Spring type: {@code mover --help} builds it without Spring's jars,
 * which the launcher puts on the class path of {@code serve} alone.
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = "Runs the mover server: REST jobs under /api/v1, live events, health and metrics. Stops on SIGTERM or Ctrl-C.")
final class ServeCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    CommonOptions common = new CommonOptions();

    @Option(names = "--address", paramLabel = "HOST",
            description = "Address to bind. Default: 127.0.0.1. Off loopback the server requires tokens (see --config).")
    Optional<String> address = Optional.empty();

    @Option(names = "--port", paramLabel = "PORT", description = "HTTP port. Default: 8080.")
    Optional<Integer> port = Optional.empty();

    @Option(names = "--data-dir", paramLabel = "DIR", description = "Where the server keeps its state. Default: ~/.mover.")
    Optional<Path> dataDir = Optional.empty();

    @Option(names = "--config", paramLabel = "FILE",
            description = "A properties or YAML file of server settings (mover.tokens[0].token=..., mover.tokens[0].scope=operate).")
    Optional<Path> config = Optional.empty();

    @Override
    public Integer call() throws InterruptedException {
        if (port.isPresent() && (port.get() < 0 || port.get() > 65_535)) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "--port " + port.get() + " is not a port: give 1 to 65535, or 0 for any free one");
        }
        return ServeRun.run(arguments(), spec.commandLine().getOut());
    }

    /** The options as Spring Boot arguments; the server itself logs at info unless asked otherwise. */
    List<String> arguments() {
        List<String> arguments = new ArrayList<>();
        arguments.add("--logging.config=classpath:io/mover/cli/logback-serve.xml");
        CliLogging.Level level = common.logLevel == CliLogging.Level.WARN && !common.debug ? CliLogging.Level.INFO : common.effectiveLogLevel();
        arguments.add("--logging.level.root=" + level.name().toLowerCase(Locale.ROOT));
        address.ifPresent(value -> arguments.add("--mover.address=" + value));
        port.ifPresent(value -> arguments.add("--mover.port=" + value));
        dataDir.ifPresent(value -> arguments.add("--mover.data-dir=" + value.toAbsolutePath()));
        config.ifPresent(value -> arguments.add("--spring.config.additional-location=file:" + value.toAbsolutePath()));
        for (int i = 0; i < common.pluginDirectories.size(); i++) {
            arguments.add("--mover.plugin-dirs[" + i + "]=" + common.pluginDirectories.get(i).toAbsolutePath());
        }
        return arguments;
    }
}
