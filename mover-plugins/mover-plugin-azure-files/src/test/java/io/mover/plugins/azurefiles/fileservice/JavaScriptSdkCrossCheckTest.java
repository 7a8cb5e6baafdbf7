package io.mover.plugins.azurefiles.fileservice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Drives the double with Microsoft's JavaScript SDK ({@code @azure/storage-file-share}, pinned in
 * {@code src/test/js/package-lock.json}), a client nobody here wrote, so that the double does not merely agree with
 * our own reading of the protocol (or with the Java SDK's). Needs Node.js and the npm registry for {@code npm ci};
 * skipped when either is missing.
 */
@Timeout(300)
final class JavaScriptSdkCrossCheckTest {
    private static final Path SCRIPTS = Path.of("src/test/js").toAbsolutePath();
    @TempDir
    Path scratch;

    private static int run(Path directory, Path output, List<String> command, long seconds) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            return -1;
        }
        return process.exitValue();
    }

    @Test
    void theJavaScriptSdkAgreesWithTheDouble() throws Exception {
        Path log = scratch.resolve("node.log");
        assumeTrue(run(SCRIPTS, log, List.of("node", "--version"), 30) == 0, "Node.js is not installed");
        if (!Files.isDirectory(SCRIPTS.resolve("node_modules/@azure/storage-file-share"))) {
            assumeTrue(run(SCRIPTS, log, List.of("npm", "ci", "--no-audit", "--no-fund"), 240) == 0,
                    "npm ci failed (no registry?): " + Files.readString(log, StandardCharsets.UTF_8));
        }
        String key = Base64.getEncoder().encodeToString("javascript-cross-check-key-0123".getBytes(StandardCharsets.UTF_8));
        try (FileServiceDouble service = FileServiceDouble.start(scratch).account("jsaccount", key)) {
            int exit = run(SCRIPTS, log, List.of("node", "crosscheck.mjs", service.endpoint("jsaccount"), "jsaccount", key), 120);
            String output = Files.readString(log, StandardCharsets.UTF_8);
            assertThat(exit).as(output).isZero();
            assertThat(output).contains("ALL OK").doesNotContain("FAIL");
        }
    }
}
