package io.mover.cli;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The launcher runs every command but {@code serve} without the jars of {@code serve.only.artifacts} (mover-cli's
 * pom, copied to {@code target/lib-serve}): the commands here run in a JVM of their own on this test's class path
 * minus those jars, against a server in this one, so a client class that needs one of them fails here.
 */
@Timeout(180)
class ClientClassPathTest {
    @RegisterExtension
    static final ServerPerClass server = new ServerPerClass();

    @TempDir
    Path temp;

    @Test
    void theClientAndLocalCommandsRunWithoutTheServersJars() throws IOException, InterruptedException {
        List<String> classPath = clientClassPath();
        Path source = Trees.sample(temp.resolve("in"));

        assertRuns(classPath, "--help");
        assertRuns(classPath, "serve", "--help");
        assertRuns(classPath, "copy", source.toString(), temp.resolve("local").toString());
        assertRuns(classPath, "sync", source.toString(), temp.resolve("local").toString());
        assertRuns(classPath, "plugins");
        // the event stream (spring-webflux's WebClient over Reactor Netty), then the JDK client's calls
        assertRuns(classPath, "copy", "--server", server.url(), source.toString(), temp.resolve("remote").toString());
        assertRuns(classPath, "jobs", "list", "--server", server.url());
        assertRuns(classPath, "schedules", "create", "hourly", source.toString(), temp.resolve("scheduled").toString(), "--every", "1h", "--paused",
                "--server", server.url());
        assertRuns(classPath, "schedules", "list", "--server", server.url());
        assertThat(Trees.describe(temp.resolve("remote"))).isEqualTo(Trees.describe(source));
    }

    /** This JVM's class path without the serve-only jars, which must have been there (or nothing was tested). */
    private static List<String> clientClassPath() {
        String property = System.getProperty("mover.serveOnlyArtifacts");
        assertThat(property).as("mover.serveOnlyArtifacts, set by mover-cli's pom").isNotBlank();
        List<String> serveOnly = Arrays.stream(property.split(",")).map(String::strip).toList();
        List<String> all = List.of(System.getProperty("java.class.path").split(File.pathSeparator));
        List<String> client = all.stream().filter(entry -> !isOneOf(Path.of(entry).getFileName().toString(), serveOnly)).toList();
        assertThat(all).anyMatch(entry -> entry.contains("spring-boot-autoconfigure"));
        assertThat(client).noneMatch(entry -> entry.contains("spring-boot-autoconfigure"));
        return client;
    }

    /** {@code spring-boot-4.0.7.jar} is spring-boot's, not {@code spring-boot-autoconfigure-4.0.7.jar}: a version follows the name. */
    private static boolean isOneOf(String jar, List<String> artifactIds) {
        return artifactIds.stream().anyMatch(id -> jar.startsWith(id + "-") && jar.length() > id.length() + 1 && Character.isDigit(jar.charAt(id.length() + 1)));
    }

    private void assertRuns(List<String> classPath, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "--enable-native-access=ALL-UNNAMED", "-cp", String.join(File.pathSeparator, classPath), Main.class.getName()));
        command.addAll(List.of(args));
        Path output = temp.resolve("output.txt");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        try {
            assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("mover %s ended", String.join(" ", args)).isTrue();
            assertThat(process.exitValue()).as("mover %s: %s", String.join(" ", args), Files.readString(output, StandardCharsets.UTF_8)).isZero();
        }
        finally {
            process.destroyForcibly();
        }
    }
}
