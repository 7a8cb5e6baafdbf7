package io.mover.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;

/** Runs {@code mover} in-process with captured stdout and stderr, as a script would see them. */
record CliRun(int exitCode, String out, String err) {
    static CliRun of(String... args) {
        return withEnvironment(Map.of(), args);
    }

    /** As {@link #of}, with these environment variables ({@code MOVER_SERVER}, {@code MOVER_TOKEN}) and no others. */
    static CliRun withEnvironment(Map<String, String> environment, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.commandLine(new CliContext(false, false, environment), new PrintWriter(out, true), new PrintWriter(err, true), args)
                .execute(args);
        return new CliRun(code, out.toString(), err.toString());
    }

    List<String> errLines() {
        return err.lines().toList();
    }

    List<String> outLines() {
        return out.lines().toList();
    }
}
