package io.mover.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * SIGTERM (what Ctrl-C does, as far as the JVM's shutdown hooks go) while {@code mover copy --server}
 * follows a job: the CLI runs as its own process, so its real shutdown hook runs.
 */
@Timeout(120)
class InterruptProcessTest {
    private static TestServer server;
    private static Path source;

    @TempDir
    static Path shared;

    @TempDir
    Path temp;

    @BeforeAll
    static void start() throws IOException {
        server = TestServer.start(shared.resolve("data"));
        // 64 MiB under a 16 Mbit/s cap: the job outlives the interrupt, and a cancel is seen within a block (the
        // cap costs no CPU, unlike a slow codec whose block in flight could outlast the CLI's grace on a loaded machine)
        source = Files.createDirectories(shared.resolve("slow"));
        byte[] data = new byte[64 << 20];
        new Random(3).nextBytes(data);
        Files.write(source.resolve("slow.bin"), data);
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void anInterruptDetachesAndTheJobKeepsRunning() throws Exception {
        Interrupted run = copyAndInterrupt();

        assertThat(run.err()).contains("mover: job " + run.id() + " keeps running on " + server.url() + "; mover jobs cancel " + run.id() + " to stop it");
        CliRun show = CliRun.of("jobs", "show", run.id(), "--server", server.url());
        assertThat(show.out()).contains(run.id() + " RUNNING");
        assertThat(CliRun.of("jobs", "cancel", run.id(), "--server", server.url()).exitCode()).isZero();
        assertThat(CliRun.of("jobs", "watch", run.id(), "--server", server.url()).exitCode()).isEqualTo(130);
    }

    @Test
    void withCancelOnInterruptTheJobIsCancelledAndItsSummaryPrinted() throws Exception {
        Interrupted run = copyAndInterrupt("--cancel-on-interrupt");

        assertThat(run.err()).contains("mover: cancelling job " + run.id() + " on " + server.url());
        assertThat(run.out()).contains("Job cancelled");
        CliRun show = CliRun.of("jobs", "show", run.id(), "--server", server.url());
        assertThat(show.out()).contains(run.id() + " CANCELLED");
    }

    private record Interrupted(String id, String out, String err) {}

    private Interrupted copyAndInterrupt(String... extra) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "--enable-native-access=ALL-UNNAMED",
                // the default 5 s for the cancelled job's summary is too short on a loaded 2-core CI machine
                "-Dmover.interrupt-grace=30", "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "copy", "--server", server.url(), "--cap-mbps", "16", "--concurrency", "1"));
        command.addAll(List.of(extra));
        command.addAll(List.of(source.toString(), temp.resolve("dst").toString()));
        Path out = temp.resolve("out.txt");
        Path err = temp.resolve("err.txt");
        Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        try {
            String id = awaitSubmitted(err);
            // a progress report means the job runs, not merely that it was queued
            awaitRunning(id);
            process.destroy();
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the CLI exits after SIGTERM").isTrue();
            return new Interrupted(id, Files.readString(out), Files.readString(err));
        }
        finally {
            process.destroyForcibly();
        }
    }

    private static String awaitSubmitted(Path err) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            String text = Files.readString(err);
            if (text.contains(" submitted to ")) {
                return text.replaceAll("(?s).*mover: job ([0-9a-f-]{36}) submitted.*", "$1");
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the CLI did not submit within 30 s: " + Files.readString(err));
    }

    private static void awaitRunning(String id) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            if (CliRun.of("jobs", "show", id, "--server", server.url()).out().contains("Progress:")) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("job " + id + " reported no progress within 30 s");
    }
}
