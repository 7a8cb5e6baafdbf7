package io.mover.cli;

/** A subcommand: what the error handler asks for to decide how much to print. */
interface CliCommand {
    CommonOptions common();
}
