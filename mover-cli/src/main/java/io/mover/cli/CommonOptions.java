package io.mover.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import picocli.CommandLine.Option;

/** Options every command takes; mixed into each command so they go after the verb ({@code mover copy --debug}). */
final class CommonOptions {
    enum Output { TEXT, JSON }

    @Option(names = "--output", paramLabel = "text|json", defaultValue = "text", converter = Converters.OutputFormat.class,
            description = "Output format: text for people, json for scripts (NDJSON events, then a summary object). Default: ${DEFAULT-VALUE}.")
    Output output = Output.TEXT;

    @Option(names = "--log-level", paramLabel = "LEVEL", defaultValue = "warn", converter = Converters.LogLevel.class,
            description = "Log level on stderr: error, warn, info, debug, trace. Default: ${DEFAULT-VALUE}.")
    CliLogging.Level logLevel = CliLogging.Level.WARN;

    @Option(names = "--debug", description = "Print stack traces with errors, and log at debug level.")
    boolean debug;

    @Option(names = "--plugins", paramLabel = "DIR",
            description = "A directory of plugins (plugins/<name>/*.jar) to load besides the built-in ones; repeatable.")
    List<Path> pluginDirectories = new ArrayList<>();

    /** The log level in effect: --debug raises it to debug. */
    CliLogging.Level effectiveLogLevel() {
        return debug && logLevel.compareTo(CliLogging.Level.DEBUG) < 0 ? CliLogging.Level.DEBUG : logLevel;
    }

    boolean json() {
        return output == Output.JSON;
    }
}
