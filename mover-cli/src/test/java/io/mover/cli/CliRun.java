package io.mover.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

/** Runs {@code mover} in-process with captured stdout and stderr, as a script would see them. */
record CliRun(int exitCode, String out, String err) {
    static CliRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.commandLine(new CliContext(false, false), new PrintWriter(out, true), new PrintWriter(err, true)).execute(args);
        return new CliRun(code, out.toString(), err.toString());
    }

    List<String> errLines() {
        return err.lines().toList();
    }

    List<String> outLines() {
        return out.lines().toList();
    }
}
