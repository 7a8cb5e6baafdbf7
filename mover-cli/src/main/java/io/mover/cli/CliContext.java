package io.mover.cli;

import java.util.Map;

/**
 * What the commands need to know about the process they run in.
 *
 * @param terminal stdout is an interactive terminal: draw a progress bar instead of status lines
 * @param shutdownHooks cancel a running job on Ctrl-C (off when tests run commands in-process)
 * @param environment the environment ({@code MOVER_SERVER}, {@code MOVER_TOKEN}); a map so tests can set it
 */
record CliContext(boolean terminal, boolean shutdownHooks, Map<String, String> environment) {
    CliContext {
        environment = Map.copyOf(environment);
    }

    /** A context without environment variables, for tests that must not see the caller's. */
    CliContext(boolean terminal, boolean shutdownHooks) {
        this(terminal, shutdownHooks, Map.of());
    }
}
