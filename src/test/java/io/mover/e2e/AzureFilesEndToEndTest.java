package io.mover.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.mover.plugins.azurefiles.fileservice.FileServiceDouble;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mover copy} local → Azure Files → local as an operator runs it (a separate JVM, the key in the
 * environment), through the real Azure SDK against the File service double, with dropped connections injected.
 */
@Timeout(180)
class AzureFilesEndToEndTest {
    private static final String KEY = Base64.getEncoder().encodeToString("e2e-account-key-0123456789abcdef".getBytes(StandardCharsets.UTF_8));
    @TempDir
    Path dir;
    private FileServiceDouble service;

    @BeforeEach
    void startService() throws IOException {
        service = FileServiceDouble.start(dir).account("e2eaccount", KEY).share("e2eaccount", "data");
    }

    @AfterEach
    void stopService() {
        service.close();
    }

    private Process mover(String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow",
                "-cp", System.getProperty("java.class.path"), "io.mover.cli.Main"));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(dir.resolve("out.txt").toFile()).redirectError(dir.resolve("err.txt").toFile());
        builder.environment().put("AZURE_STORAGE_KEY", KEY);
        return builder.start();
    }

    private String output() throws IOException {
        return Files.readString(dir.resolve("out.txt")) + Files.readString(dir.resolve("err.txt"));
    }

    @Test
    void copiesATreeToAShareAndBackThroughDroppedConnections() throws Exception {
        Path source = Trees.sample(dir.resolve("src"));
        String endpoint = "endpoint=" + service.endpoint("e2eaccount");
        service.faults().dropEvery = 17;

        Process up = mover("copy", source.toString(), "azfiles://e2eaccount/data/tree", "--dest-config", endpoint, "--retries", "5");
        assertThat(up.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(up.exitValue()).as(output()).isZero();
        assertThat(service.count("dropped")).isPositive();
        assertThat(service.names("e2eaccount", "data", "tree")).noneMatch(name -> name.contains(".partial."));

        Process down = mover("copy", "azfiles://e2eaccount/data/tree", dir.resolve("back").toString(), "--source-config", endpoint, "--retries", "5");
        assertThat(down.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(down.exitValue()).as(output()).isZero();
        assertThat(Trees.fingerprint(dir.resolve("back"))).isEqualTo(Trees.fingerprint(source));
        assertThat(output()).doesNotContain(KEY);
    }
}
