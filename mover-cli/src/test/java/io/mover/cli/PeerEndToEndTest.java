package io.mover.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code mover receive} and {@code mover copy SRC tcp://...} in this process over loopback, through
 * picocli, on real trees: the receiver writes with the real local sink.
 */
@Timeout(60)
class PeerEndToEndTest {
    @TempDir
    Path temp;

    private Thread receiver;
    private final StringWriter receiverOut = new StringWriter();
    private final StringWriter receiverErr = new StringWriter();

    @AfterEach
    void stopReceiver() throws InterruptedException {
        if (receiver != null) {
            receiver.interrupt();
            receiver.join(Duration.ofSeconds(20));
        }
    }

    /** Starts {@code mover receive} on a free loopback port; returns the port once it listens. */
    private int receive(Path destination, Map<String, String> environment, String... options) throws Exception {
        int port = ReceiveArgs.freePort();
        String[] args = ReceiveArgs.of(port, destination, options);
        receiver = Thread.ofPlatform().name("test-receiver").start(() ->
                Main.commandLine(new CliContext(false, false, environment), new PrintWriter(receiverOut, true), new PrintWriter(receiverErr, true)).execute(args));
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!receiverOut.toString().contains("mover: receiving into")) {
            assertThat(System.nanoTime()).as("receiver did not start: " + receiverErr).isLessThan(deadline);
            assertThat(receiver.isAlive()).as("receiver ended: " + receiverErr).isTrue();
            Thread.sleep(20);
        }
        return port;
    }

    @Test
    void benchSweepsStreamsAndCodecsAgainstAReceiverAndRecommendsACell() throws Exception {
        Path destination = temp.resolve("dst");
        int port = receive(destination, Map.of());

        CliRun run = CliRun.of("bench", "--files", "4", "--size", "64KiB", "--data", "text", "--concurrency", "4", "--streams", "1,2",
                "--codecs", "none,lz4", "tcp://127.0.0.1:" + port + "/scratch");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("mover bench (transfer) on tcp://127.0.0.1:" + port + "/scratch", "streams, codec", "1 stream, none",
                "2 streams, lz4", "Recommended: --streams ", "not read back");
        assertThat(run.err()).contains("mover: 2 streams, codec lz4: writing 4 files");
        try (var left = Files.list(destination.resolve("scratch"))) {
            assertThat(left).as("the bench removes what it wrote at the receiver").isEmpty();
        }
    }

    @Test
    void copiesATreeByteForByteOverSeveralStreamsWithACodec() throws Exception {
        Path source = Trees.sample(temp.resolve("src"));
        Files.write(source.resolve("a/zeros.bin"), new byte[2 * 1024 * 1024]);
        Path destination = temp.resolve("dst");
        int port = receive(destination, Map.of());

        CliRun run = CliRun.of("copy", "--codec", "zstd", "--streams", "3", "--block-size", "256k", source.toString(),
                "tcp://127.0.0.1:" + port + "/inbox");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(Trees.describe(destination.resolve("inbox"))).isEqualTo(Trees.describe(source));
        assertThat(run.out()).contains("Job succeeded", "6 transferred", "SEND");
        try (var files = Files.walk(destination)) {
            assertThat(files.map(Path::getFileName).map(Path::toString)).noneMatch(name -> name.startsWith(".mover."));
        }
    }

    @Test
    void blocksOfZerosStayHolesOnlyWhenTheReceiverIsToldSparse() throws Exception {
        Path source = Files.createDirectories(temp.resolve("src"));
        byte[] bytes = new byte[8 * 1024 * 1024 + 1];
        bytes[bytes.length - 1] = 7;
        Files.write(source.resolve("zeros.bin"), bytes);
        Path sparse = temp.resolve("sparse");
        Path full = temp.resolve("full");
        for (Path destination : new Path[] {sparse, full}) {
            int port = destination == sparse ? receive(destination, Map.of(), "--sparse") : receive(destination, Map.of());
            CliRun run = CliRun.of("copy", "--codec", "lz4", source.toString(), "tcp://127.0.0.1:" + port + "/");
            assertThat(run.exitCode()).as(run.err()).isZero();
            assertThat(Files.readAllBytes(destination.resolve("zeros.bin"))).isEqualTo(bytes);
            stopReceiver();
            receiverOut.getBuffer().setLength(0); // the next receiver's "receiving into" is waited for afresh
        }
        assertThat(allocatedBytes(sparse.resolve("zeros.bin"))).isLessThan(1024 * 1024);
        assertThat(allocatedBytes(full.resolve("zeros.bin"))).isGreaterThanOrEqualTo(8 * 1024 * 1024);
    }

    /**
     * A file of zero and non-zero regions (a one at a block's first and last byte among them) crosses whole, by
     * SHA-256, with every codec kind; its blocks of zeros cross as headers alone (SEND carries a few KiB, not the
     * 6 MiB of zeros raw) unless the receiver does not offer them, when they go as bytes.
     */
    @Test
    void blocksOfZerosCrossAsHeadersAloneAndTheFileArrivesWhole() throws Exception {
        int block = 256 * 1024;
        byte[] bytes = new byte[32 * block + 123];
        byte[] noise = new byte[2 * block];
        new java.util.Random(5).nextBytes(noise);
        System.arraycopy(noise, 0, bytes, 4 * block, noise.length);
        for (int i = 6 * block; i < 8 * block; i++) {
            bytes[i] = (byte) (i % 61);
        }
        bytes[10 * block] = 1;               // first byte of a block
        bytes[12 * block - 1] = 1;           // last byte of a block
        Path source = Files.createDirectories(temp.resolve("src"));
        Files.write(source.resolve("mixed.bin"), bytes);
        String expected = sha256(source.resolve("mixed.bin"));
        for (String codec : new String[] {"none", "lz4", "auto", "none-old-receiver"}) {
            Path destination = temp.resolve("dst-" + codec);
            boolean old = codec.endsWith("old-receiver");
            int port = old ? receive(destination, Map.of(), "--receiver-config", "zero-blocks=false") : receive(destination, Map.of());
            CliRun run = CliRun.of("copy", "--codec", old ? "none" : codec, "--block-size", "256k", source.toString(), "tcp://127.0.0.1:" + port + "/");
            assertThat(run.exitCode()).as(run.err()).isZero();
            assertThat(sha256(destination.resolve("mixed.bin"))).as(codec).isEqualTo(expected);
            long sent = sentBytes(run.out());
            if (old) {
                assertThat(sent).as("zeros raw to a receiver that does not offer blocks of zeros: " + run.out()).isGreaterThan(24L * block);
            }
            else if (codec.equals("none")) {
                // the 4 data blocks and the 2 blocks with a one go as bytes; 26 blocks of zeros as 16-byte headers
                assertThat(sent).as(run.out()).isLessThan(7L * block);
            }
            stopReceiver();
            receiverOut.getBuffer().setLength(0);
        }
    }

    private static String sha256(Path file) throws Exception {
        return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    }

    /** The SEND stage's bytes from a job summary's stage table. */
    private static long sentBytes(String summary) {
        java.util.regex.Matcher matcher = java.util.regex.Pattern.compile("SEND\\s+([0-9.]+) ?([KMG]i?B|B)").matcher(summary);
        assertThat(matcher.find()).as("a SEND line in " + summary).isTrue();
        double value = Double.parseDouble(matcher.group(1));
        return (long) (value * switch (matcher.group(2).charAt(0)) {
            case 'K' -> 1024;
            case 'M' -> 1024 * 1024;
            case 'G' -> 1024 * 1024 * 1024;
            default -> 1;
        });
    }

    /** The JDK does not tell a file's allocated blocks; stat(1) does (its %b counts 512-byte units). */
    private static long allocatedBytes(Path file) throws IOException, InterruptedException {
        Process stat = new ProcessBuilder("stat", "-c", "%b", file.toString()).redirectErrorStream(true).start();
        assertThat(stat.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        return Long.parseLong(new String(stat.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII).strip()) * 512;
    }

    @Test
    void aSecondRunComparesOverTheProtocolAndSkipsCommittedFiles() throws Exception {
        Path source = Trees.sample(temp.resolve("src"));
        Path destination = temp.resolve("dst");
        int port = receive(destination, Map.of());
        String target = "tcp://127.0.0.1:" + port + "/";
        CliRun first = CliRun.of("copy", source.toString(), target);
        assertThat(first.exitCode()).as(first.err()).isZero();
        // the default over a link is auto: the summary says what carried the blocks and why
        assertThat(first.out()).containsPattern("Codec: +auto \\(blocks: .*last choice");

        CliRun again = CliRun.of("copy", "--overwrite", "false", source.toString(), target);

        assertThat(again.exitCode()).as(again.err()).isZero();
        assertThat(again.out()).contains("0 transferred, 5 skipped");
        assertThat(Trees.describe(destination)).isEqualTo(Trees.describe(source));
    }

    @Test
    void aWrongTokenIsRefusedInOneLineAndNothingIsWritten() throws Exception {
        Path source = Trees.sample(temp.resolve("src"));
        Path destination = temp.resolve("dst");
        int port = receive(destination, Map.of("MOVER_PEER_TOKEN", "the-right-one"));

        CliRun run = CliRun.withEnvironment(Map.of("MOVER_PEER_TOKEN", "a-wrong-one"), "copy", source.toString(), "tcp://127.0.0.1:" + port + "/x");

        assertThat(run.exitCode()).isNotZero();
        assertThat(run.errLines()).hasSize(1);
        assertThat(run.err()).contains("token was refused").doesNotContain("the-right-one").doesNotContain("a-wrong-one");
        assertThat(Files.exists(destination.resolve("x"))).isFalse();

        CliRun right = CliRun.withEnvironment(Map.of("MOVER_PEER_TOKEN", "the-right-one"), "copy", source.toString(), "tcp://127.0.0.1:" + port + "/x");
        assertThat(right.exitCode()).as(right.err()).isZero();
        assertThat(Trees.describe(destination.resolve("x"))).isEqualTo(Trees.describe(source));
    }

    @Test
    void aSymlinkInTheDestinationDoesNotLeadWritesOutside() throws Exception {
        Path source = temp.resolve("src");
        Files.createDirectories(source.resolve("evil"));
        Files.writeString(source.resolve("evil/planted.txt"), "x");
        Files.writeString(source.resolve("fine.txt"), "fine");
        Path outside = Files.createDirectories(temp.resolve("outside"));
        Path destination = Files.createDirectories(temp.resolve("dst"));
        Files.createSymbolicLink(destination.resolve("evil"), outside);
        int port = receive(destination, Map.of());

        CliRun run = CliRun.of("copy", source.toString(), "tcp://127.0.0.1:" + port + "/");

        assertThat(run.exitCode()).isNotZero();
        try (var files = Files.list(outside)) {
            assertThat(files).isEmpty();
        }
        assertThat(Files.readString(destination.resolve("fine.txt"))).isEqualTo("fine");
    }

    @Test
    void offLoopbackWithoutATokenTheReceiverRefusesToStart() throws IOException {
        CliRun run = CliRun.of("receive", "--listen", "0.0.0.0:0", temp.resolve("dst").toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("needs a token");
    }

    @Test
    void withTlsTheReceiverPrintsItsFingerprintAndAPinnedSenderCopiesByteForByte() throws Exception {
        Path source = Trees.sample(temp.resolve("src"));
        Path destination = temp.resolve("dst");
        int port = receive(destination, Map.of("MOVER_PEER_TOKEN", "tls-token"), "--tls", "--tls-dir", temp.resolve("tls").toString());
        java.util.regex.Matcher printed = java.util.regex.Pattern.compile("--tls-fingerprint (sha256:[0-9a-f]{64})").matcher(receiverOut.toString());
        assertThat(printed.find()).as(receiverOut.toString()).isTrue();
        Map<String, String> token = Map.of("MOVER_PEER_TOKEN", "tls-token");

        CliRun plain = CliRun.withEnvironment(token, "copy", source.toString(), "tcp://127.0.0.1:" + port + "/x");
        assertThat(plain.exitCode()).isNotZero();
        assertThat(plain.errLines()).hasSize(1);
        assertThat(plain.err()).contains("requires TLS");

        CliRun pinned = CliRun.withEnvironment(token, "copy", "--tls-fingerprint", printed.group(1), source.toString(), "tcp://127.0.0.1:" + port + "/x");
        assertThat(pinned.exitCode()).as(pinned.err()).isZero();
        assertThat(Trees.describe(destination.resolve("x"))).isEqualTo(Trees.describe(source));
    }

    @Test
    void tlsOptionsWithALocalDestinationAreRefused() throws IOException {
        CliRun run = CliRun.of("copy", "--tls", Trees.sample(temp.resolve("src")).toString(), temp.resolve("dst").toString());

        assertThat(run.exitCode()).isNotZero();
        assertThat(run.err()).contains("apply to tcp:// destinations only");
    }
}
