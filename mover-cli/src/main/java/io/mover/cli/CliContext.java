package io.mover.cli;

/**
 * What the commands need to know about the process they run in.
 *
 * @param terminal stdout is an interactive terminal: draw a progress bar instead of status lines
 * @param shutdownHooks cancel a running job on Ctrl-C (off when tests run commands in-process)
 */
record CliContext(boolean terminal, boolean shutdownHooks) {}
