package io.mover.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Resume inside a large file after the receiver was killed: {@code mover receive} runs as a separate
 * process, gets SIGKILL in the middle of a file, is started again, and a re-run of the same copy continues
 * the file from the blocks the killed receiver had written (the partial and its journal), sending fewer
 * bytes than the file holds. The final file is byte-identical.
 */
@Timeout(120)
class PeerKilledReceiverTest {
    private static final int SIZE = 48 << 20;

    @TempDir
    Path temp;

    private Process receiver(Path destination, int port, Path log) throws IOException {
        List<String> command = List.of(ProcessHandle.current().info().command().orElse("java"), "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "receive", "--listen", "127.0.0.1:" + port, "--log-level", "info", destination.toString());
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!Files.readString(log).contains("mover: receiving into")) {
            assertThat(process.isAlive()).as(Files.readString(log)).isTrue();
            assertThat(System.nanoTime()).as("the receiver did not start: " + Files.readString(log)).isLessThan(deadline);
            sleep(50);
        }
        return process;
    }

    @Test
    void aRerunAfterTheReceiverWasKilledContinuesTheFileFromItsJournal() throws Exception {
        Path source = Files.createDirectories(temp.resolve("src"));
        byte[] bytes = new byte[SIZE];
        new Random(11).nextBytes(bytes);
        Files.write(source.resolve("big.bin"), bytes);
        Path destination = Files.createDirectories(temp.resolve("dst"));
        int port = ReceiveArgs.freePort();
        String target = "tcp://127.0.0.1:" + port + "/in";

        Process first = receiver(destination, port, temp.resolve("first.log"));
        CliRun interrupted;
        try {
            // slowed to ~10 MB/s so that the kill lands in the middle of the file
            CompletableFuture<CliRun> copy = CompletableFuture.supplyAsync(() -> CliRun.of("copy", "--codec", "none", "--cap-mbps", "80",
                    "--retries", "0", "--streams", "2", source.toString(), target));
            awaitJournal(destination.resolve("in"), 12);
            first.destroyForcibly();
            assertThat(first.waitFor(30, TimeUnit.SECONDS)).isTrue();
            interrupted = copy.get(60, TimeUnit.SECONDS);
        }
        finally {
            first.destroyForcibly();
        }
        assertThat(interrupted.exitCode()).as("the copy fails with its receiver killed").isNotZero();
        assertThat(destination.resolve("in/big.bin")).doesNotExist();

        Path log = temp.resolve("second.log");
        Process second = receiver(destination, port, log);
        try {
            // another codec than the first run's: a block is kept by its raw bytes' CRC32C, whatever crossed the link
            CliRun rerun = CliRun.of("copy", "--codec", "lz4", "--streams", "2", "--output", "json", source.toString(), target);
            assertThat(rerun.exitCode()).as(rerun.err()).isZero();
            assertThat(Files.readAllBytes(destination.resolve("in/big.bin"))).isEqualTo(bytes);
            try (var files = Files.list(destination.resolve("in"))) {
                assertThat(files.map(p -> p.getFileName().toString())).containsExactly("big.bin");
            }
            Matcher resumed = Pattern.compile("resumed in/big.bin: (\\d+) bytes kept from an earlier run, (\\d+) received").matcher(awaitLogged(log, "resumed in/big.bin"));
            assertThat(resumed.find()).isTrue();
            long kept = Long.parseLong(resumed.group(1));
            long received = Long.parseLong(resumed.group(2));
            assertThat(kept).isGreaterThanOrEqualTo(12L << 20);
            assertThat(received).as("bytes sent again").isLessThan(SIZE).isGreaterThanOrEqualTo(SIZE - kept);
            Matcher encode = Pattern.compile("\\{\"stage\":\"ENCODE\",\"bytes\":(\\d+)").matcher(rerun.out());
            assertThat(encode.find()).as(rerun.out()).isTrue();
            assertThat(Long.parseLong(encode.group(1))).as("the kept blocks are read and checksummed, not encoded").isEqualTo(SIZE - kept);
        }
        finally {
            second.destroyForcibly();
            second.waitFor(30, TimeUnit.SECONDS);
        }
    }

    /** Waits until the partial's journal records at least {@code blocks} blocks (1 MiB each). */
    private static void awaitJournal(Path directory, int blocks) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (Files.isDirectory(directory)) {
                try (var files = Files.list(directory)) {
                    if (files.filter(p -> p.getFileName().toString().endsWith(".journal")).anyMatch(p -> size(p) >= 8 + 16L * blocks)) {
                        return;
                    }
                }
            }
            sleep(20);
        }
        throw new AssertionError("no journal of " + blocks + " blocks within 60 s");
    }

    private static String awaitLogged(Path log, String text) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!Files.readString(log).contains(text) && System.nanoTime() < deadline) {
            sleep(50);
        }
        return Files.readString(log);
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        }
        catch (IOException e) {
            return 0;
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
