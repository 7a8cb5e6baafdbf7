package io.mover.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** {@code mover} as its own JVM on the test class path, output in {@code dir}/out.txt and err.txt. */
final class CliProcesses {
    private CliProcesses() {}

    static Process start(Path dir, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        if (sigintIgnored()) {
            // a shell ignores SIGINT in what it starts in the background (`.ci/run &`), an ignored signal stays ignored
            // through exec, and a JVM that starts with SIGINT ignored keeps it so: mover would not hear Ctrl-C at all,
            // as a user's background job should not; the child gets the default disposition back, as in a terminal
            command.addAll(List.of("env", "--default-signal=INT"));
        }
        command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow",
                "-cp", System.getProperty("java.class.path"), "io.mover.cli.Main"));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectOutput(dir.resolve("out.txt").toFile()).redirectError(dir.resolve("err.txt").toFile()).start();
    }

    /** Whether this process ignores SIGINT (Linux: bit 1 of SigIgn in /proc/self/status). */
    private static boolean sigintIgnored() throws IOException {
        Path status = Path.of("/proc/self/status");
        if (!Files.isReadable(status)) {
            return false;
        }
        for (String line : Files.readAllLines(status)) {
            if (line.startsWith("SigIgn:")) {
                return (Long.parseUnsignedLong(line.substring("SigIgn:".length()).strip(), 16) & (1L << 1)) != 0;
            }
        }
        return false;
    }
}
