package io.mover.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code mover copy --format tar+...} and {@code mover receive --format tar+... --once} through picocli and
 * the real engine, with the real zstd and tar on the other side (the tcp plugin's own tests add nc and
 * every format). Here a loopback socket stands in for nc: it only carries the bytes.
 */
@Timeout(120)
class TarInteropEndToEndTest {
    @TempDir
    Path temp;

    @Test
    void copySendsATarStreamThatZstdAndTarUnpackByteForByte() throws Exception {
        assumeInstalled("zstd", "tar");
        Path source = Trees.sample(temp.resolve("src"));
        // above the engine's 64 MiB threshold: its ranges run on several threads and must reach the stream in order
        byte[] large = new byte[65 * 1024 * 1024 + 17];
        for (int i = 0; i < large.length; i += 4096) {
            large[i] = (byte) (i >>> 12);
        }
        Files.write(source.resolve("a/large.bin"), large);
        Path destination = Files.createDirectories(temp.resolve("dst"));

        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Integer> untar = CompletableFuture.supplyAsync(() -> pipeInto(listener, "zstd -d -q | tar x -C " + destination));

            CliRun run = CliRun.of("copy", "--format", "tar+zstd", "--concurrency", "4", source.toString(), "tcp://127.0.0.1:" + listener.getLocalPort() + "/inbox");

            assertThat(run.exitCode()).as(run.err()).isZero();
            assertThat(untar.get(60, TimeUnit.SECONDS)).isZero();
            assertThat(run.out()).contains("Job succeeded", "6 transferred", "SEND");
        }
        assertThat(Trees.describe(destination.resolve("inbox"))).isEqualTo(Trees.describe(source));
    }

    @Test
    void receiveOnceTakesWhatTarAndZstdSendAndExitsWithItsOutcome() throws Exception {
        assumeInstalled("zstd", "tar");
        Path source = Trees.sample(temp.resolve("src"));
        byte[] archive = output("tar c -C " + source + " . | zstd -q -c");

        Receiver whole = Receiver.start(temp.resolve("whole"), "--format", "tar+zstd", "--once");
        whole.send(archive);
        assertThat(whole.exitCode()).as(whole.err.toString()).isZero();
        assertThat(Trees.describe(temp.resolve("whole"))).isEqualTo(Trees.describe(source));

        Receiver cut = Receiver.start(temp.resolve("cut"), "--format", "tar+zstd", "--once");
        cut.send(Arrays.copyOf(archive, archive.length / 2));
        assertThat(cut.exitCode()).isEqualTo(7);
        assertThat(cut.err.toString()).contains("ended early");
        try (var files = Files.walk(temp.resolve("cut"))) {
            assertThat(files.map(path -> path.getFileName().toString())).noneMatch(name -> name.startsWith(".mover.")).doesNotContain("big.bin");
        }
    }

    @Test
    void mistakesAreUsageErrorsInOneLine() {
        String dst = "tcp://127.0.0.1:9/x";
        String src = temp.toString();
        assertUsageError(CliRun.of("copy", "--format", "tar", src, temp.resolve("local").toString()), "--format applies to tcp:// destinations only");
        assertUsageError(CliRun.of("copy", "--format", "tar", "--overwrite", "false", src, dst), "a tar stream cannot");
        assertUsageError(CliRun.of("copy", "--format", "tar+zstd", "--streams", "2", src, dst), "a tar stream is one connection");
        assertUsageError(CliRun.of("copy", "--format", "zip", src, dst), "tar+zstd[:1-19]");
        assertUsageError(CliRun.of("receive", "--listen", "0.0.0.0:0", "--format", "tar", temp.resolve("d").toString()), "--insecure-plain");
        assertUsageError(CliRun.of("receive", "--listen", "127.0.0.1:0", "--once", temp.resolve("d").toString()), "plain tar formats only");
    }

    private static void assertUsageError(CliRun run, String message) {
        assertThat(run.exitCode()).as(run.err()).isEqualTo(1);
        assertThat(run.errLines()).hasSize(1);
        assertThat(run.err()).contains(message);
    }

    /** Accepts one connection and pipes what arrives into {@code command}'s stdin; returns its exit code. */
    private int pipeInto(ServerSocket listener, String command) {
        try (Socket socket = listener.accept()) {
            Process process = new ProcessBuilder("bash", "-c", "set -o pipefail; " + command).redirectErrorStream(true)
                    .redirectOutput(temp.resolve("untar.log").toFile()).start();
            try (InputStream in = socket.getInputStream(); OutputStream out = process.getOutputStream()) {
                in.transferTo(out);
            }
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return -1;
            }
            return process.exitValue();
        }
        catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    private static byte[] output(String command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder("bash", "-c", "set -o pipefail; " + command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        byte[] bytes = process.getInputStream().readAllBytes();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).isZero();
        return bytes;
    }

    private static void assumeInstalled(String... tools) {
        for (String tool : tools) {
            Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin", tool)) || Files.isExecutable(Path.of("/bin", tool)),
                    tool + " is not installed (Debian: apt-get install " + tool + ")");
        }
    }

    /** {@code mover receive ... DEST} on a free loopback port, in this process. */
    private record Receiver(Thread thread, AtomicInteger exit, int port, StringWriter out, StringWriter err) {
        static Receiver start(Path destination, String... options) throws Exception {
            int port = ReceiveArgs.freePort();
            String[] args = ReceiveArgs.of(port, destination, options);
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            AtomicInteger exit = new AtomicInteger(-1);
            Thread thread = Thread.ofPlatform().name("test-receiver").start(() ->
                    exit.set(Main.commandLine(new CliContext(false, false, Map.of()), new PrintWriter(out, true), new PrintWriter(err, true)).execute(args)));
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (!out.toString().contains("mover: receiving into")) {
                assertThat(System.nanoTime()).as("receiver did not start: " + err).isLessThan(deadline);
                assertThat(thread.isAlive()).as("receiver ended: " + err).isTrue();
                Thread.sleep(20);
            }
            return new Receiver(thread, exit, port, out, err);
        }

        void send(byte[] bytes) throws IOException {
            try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
                socket.getOutputStream().write(bytes);
            }
        }

        int exitCode() throws InterruptedException {
            thread.join(Duration.ofSeconds(30));
            assertThat(thread.isAlive()).as("receive --once did not exit").isFalse();
            return exit.get();
        }
    }
}
