package io.mover.cli;

import java.io.PrintWriter;

import io.mover.spi.MoverException;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * Turns every error into one line on stderr ({@code mover: <message>}) and its exit code; the stack
 * trace follows only with {@code --debug}. The code comes from the error's category (see {@link ExitCode}).
 */
final class CliErrors implements IExecutionExceptionHandler, IParameterExceptionHandler {
    @Override
    public int handleParseException(ParameterException error, String[] args) {
        CommandLine command = error.getCommandLine();
        PrintWriter err = command.getErr();
        String message = hideTokens(oneLine(error.getMessage()), args);
        err.println("mover: " + message + " (see '" + command.getCommandSpec().qualifiedName() + " --help')");
        err.flush();
        return ExitCode.USAGE.code();
    }

    /**
     * Whether the failed command was given {@code --debug}: read from its {@link CommonOptions} mixin, found through
     * picocli's model, so that every command that mixes the common options in gets stack traces without more code.
     */
    static boolean debug(CommandLine command) {
        return command.getCommandSpec().mixins().values().stream()
                .anyMatch(mixin -> mixin.userObject() instanceof CommonOptions common && common.debug);
    }

    @Override
    public int handleExecutionException(Exception error, CommandLine command, ParseResult parseResult) {
        PrintWriter err = command.getErr();
        boolean debug = debug(command);
        ExitCode exit;
        String message;
        if (error instanceof MoverException mover) {
            exit = ExitCode.of(mover);
            message = mover.getMessage();
        }
        else {
            // not one of ours: a bug or an environment problem; name the type, the message alone may be empty
            exit = ExitCode.FATAL;
            message = "unexpected error: " + error + (debug ? "" : " (run with --debug for details)");
        }
        err.println("mover: " + oneLine(message));
        if (debug) {
            error.printStackTrace(err);
        }
        err.flush();
        return exit.code();
    }

    /** picocli quotes arguments in some messages ("expected only one match: --token=..."): a token never shows. */
    static String hideTokens(String message, String[] args) {
        String hidden = message;
        for (int i = 0; i < args.length; i++) {
            String token = null;
            if (args[i].startsWith("--token=")) {
                token = args[i].substring("--token=".length());
            }
            else if (args[i].equals("--token") && i + 1 < args.length) {
                token = args[i + 1];
            }
            if (token != null && !token.isEmpty()) {
                hidden = hidden.replace(token, "[hidden]");
            }
        }
        return hidden;
    }

    private static String oneLine(String message) {
        if (message == null || message.isBlank()) {
            return "failed without a message";
        }
        return message.strip().replaceAll("\\s*\\R\\s*", " ");
    }
}
