package io.mover.plugins.tcp.tar;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.mover.plugins.local.LocalPlugin;
import io.mover.plugins.tcp.ListLogger;
import io.mover.plugins.tcp.TcpSinkFactory;
import io.mover.spi.EndpointUri;
import io.mover.spi.MoverException;
import io.mover.spi.PeerReceiver;
import io.mover.spi.PluginConfig;
import io.mover.spi.PluginContext;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code mover receive --format tar...} against the real tools ({@code tar c | zstd | nc}) and against
 * hostile archives: nothing is written outside the destination, no partial file is ever visible, each bad
 * connection is closed with a logged reason, and the receiver serves the next archive.
 */
@Timeout(120)
class TarReceiverTest {
    @TempDir
    Path temp;

    private Path destination;
    private Path outside;
    private final List<String> log = new CopyOnWriteArrayList<>();
    private PeerReceiver receiver;
    private String format;

    @BeforeEach
    void paths() throws IOException {
        destination = Files.createDirectories(temp.resolve("dst"));
        outside = Files.createDirectories(temp.resolve("outside"));
    }

    @AfterEach
    void stop() throws IOException {
        if (receiver != null) {
            receiver.close();
        }
        try (Stream<Path> files = Files.list(outside)) {
            assertThat(files).as("written outside the destination").isEmpty();
        }
        try (Stream<Path> files = Files.walk(destination)) {
            assertThat(files.map(path -> path.getFileName().toString())).as("temporaries left").noneMatch(name -> name.startsWith(".mover."));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"tar", "tar+zstd", "tar+lz4", "tar+gzip"})
    void receivesWhatTarAndNcSendByteForByte(String format) throws Exception {
        TarFormat.Compression compression = TarFormat.parse(format).orElseThrow().compression();
        Tools.assumeInstalled("nc", "tar", "bash", Tools.compress(compression).split(" ")[0]);
        Path source = SampleTree.create(temp.resolve("src"));
        receiver = start(Map.of("format", format));
        int port = receiver.address().getPort();

        // the POSIX format carries times in nanoseconds; GNU tar's default keeps whole seconds
        Tools.Pipeline sender = Tools.Pipeline.start("tar c --format=posix -C " + source + " . | " + Tools.compress(compression) + " | " + Tools.send(port), temp.resolve("sender.log"));

        assertThat(sender.await()).as(sender.output()).isZero();
        awaitLogged("received");
        assertThat(Tools.digests(destination)).isEqualTo(Tools.digests(source));
        assertThat(Files.getLastModifiedTime(destination.resolve("a/b/text.txt")).toInstant()).isEqualTo(SampleTree.TIME);
        assertThat(Files.getLastModifiedTime(destination.resolve("a/b")).toInstant()).isEqualTo(SampleTree.TIME.minusSeconds(3600));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(destination.resolve("a/b/private.txt")))).isEqualTo("rw-------");
    }

    @Test
    void hardLinksFromTarBecomeHardLinksAndThoseLeadingOutAreSkipped() throws Exception {
        Tools.assumeInstalled("tar", "bash");
        Path source = Files.createDirectories(temp.resolve("src/d"));
        Files.writeString(source.resolve("one.txt"), "shared content\n");
        Files.createLink(source.resolve("two.txt"), source.resolve("one.txt"));
        receiver = start(Map.of("format", "tar"));

        Tools.Pipeline tar = Tools.Pipeline.start("tar c -f " + temp.resolve("links.tar") + " -C " + temp.resolve("src") + " .", temp.resolve("tar.log"));
        assertThat(tar.await()).as(tar.output()).isZero();
        send(Files.readAllBytes(temp.resolve("links.tar")));
        awaitLogged("received");
        log.clear();
        send(tar(file("x.txt", "x"), hardLink("h1", "/etc/passwd"), hardLink("h2", "../outside/x"), hardLink("h3", "missing.txt")));
        awaitLogged("received");

        assertThat(Files.readString(destination.resolve("d/two.txt"))).isEqualTo("shared content\n");
        assertThat(Files.isSameFile(destination.resolve("d/one.txt"), destination.resolve("d/two.txt"))).isTrue();
        assertThat(destination.resolve("h1")).doesNotExist();
        assertThat(destination.resolve("h2")).doesNotExist();
        assertThat(destination.resolve("h3")).doesNotExist();
        assertThat(log).anyMatch(line -> line.contains("skipped h1: a hard link to '/etc/passwd', outside the destination"))
                .anyMatch(line -> line.contains("skipped h3: a hard link to missing.txt, which is not a file here"));
    }

    @Test
    void hostileNamesStopTheArchiveAndTheReceiverServesTheNext() throws Exception {
        receiver = start(Map.of("format", "tar"));

        for (String name : List.of("../escape.txt", "/" + outside.resolve("absolute.txt"), "a/../../escape.txt", "back\\slash", "nul" + "x".repeat(120) + "\0.txt")) {
            send(tar(file("before.txt", "fine"), file(name, "evil")));
            awaitLogged("closing connection");
            assertThat(log).anyMatch(line -> line.contains("closing connection") && line.contains("the archive is refused"));
            log.clear();
        }

        assertThat(Files.readString(destination.resolve("before.txt"))).isEqualTo("fine");
        assertAGoodArchiveIsReceived();
    }

    @Test
    void linksThatLeaveTheDestinationAreSkippedAndNothingIsWrittenThroughThem() throws Exception {
        receiver = start(Map.of("format", "tar"));

        send(tar(link("out", outside.toString()), file("out/through.txt", "evil"),
                link("up", "../outside"), link("a/up2", "../../outside/x"), file("up/through.txt", "evil"),
                device("dev/null"), link("a/fine", "../target.txt"), file("target.txt", "target")));

        awaitLogged("received");
        assertThat(Files.isSymbolicLink(destination.resolve("out"))).isFalse();
        assertThat(Files.readString(destination.resolve("out/through.txt"))).isEqualTo("evil");
        assertThat(Files.readSymbolicLink(destination.resolve("a/fine")).toString()).isEqualTo("../target.txt");
        assertThat(destination.resolve("dev/null")).doesNotExist();
        assertThat(log).anyMatch(line -> line.contains("skipped out: a symbolic link to '" + outside + "', outside the destination"))
                .anyMatch(line -> line.contains("skipped dev/null: a device"));
    }

    @Test
    void aLinkAlreadyInTheDestinationDoesNotLeadWritesOutside() throws Exception {
        Files.createSymbolicLink(destination.resolve("planted"), outside);
        receiver = start(Map.of("format", "tar"));

        send(tar(file("planted/evil.txt", "evil")));

        awaitLogged("closing connection");
        assertThat(log).anyMatch(line -> line.contains("symbolic link that leads outside the destination"));
        Files.delete(destination.resolve("planted"));
        assertAGoodArchiveIsReceived();
    }

    @Test
    void aTruncatedStreamLeavesNoPartialFileAndKeepsWhatCameBefore() throws Exception {
        receiver = start(Map.of("format", "tar+zstd"));
        byte[] big = new byte[4 * 1024 * 1024];
        new Random(1).nextBytes(big);
        byte[] archive = zstd(tar(file("first.txt", "first"), file("big.bin", big)));

        send(Arrays.copyOf(archive, archive.length * 2 / 3));

        awaitLogged("closing connection");
        assertThat(log).anyMatch(line -> line.contains("ended early") && line.contains("big.bin"));
        assertThat(Files.readString(destination.resolve("first.txt"))).isEqualTo("first");
        assertThat(destination.resolve("big.bin")).doesNotExist();
        assertAGoodArchiveIsReceived();
    }

    @Test
    void garbageOrTheWrongCompressionIsNamed() throws Exception {
        receiver = start(Map.of("format", "tar+zstd"));
        byte[] garbage = new byte[100_000];
        new Random(2).nextBytes(garbage);

        send(garbage);
        awaitLogged("does not start like a zstd stream");
        send(gzip(tar(file("x.txt", "x"))));
        awaitLogged("the stream is a gzip stream, not tar+zstd: start the receiver with --format tar+gzip");
        byte[] corrupt = zstd(tar(file("x.txt", "x".repeat(100_000))));
        Arrays.fill(corrupt, 20, corrupt.length - 20, (byte) 7);
        send(corrupt);
        awaitLogged("not a valid tar+zstd archive");

        try (Stream<Path> files = Files.list(destination)) {
            assertThat(files).isEmpty();
        }
        assertAGoodArchiveIsReceived();
    }

    @Test
    void aHugeLongNameOrPaxHeaderIsRefusedBeforeItIsRead() throws Exception {
        receiver = start(Map.of("format", "tar"));

        for (char type : new char[] {'L', 'x', 'g'}) {
            byte[] header = new byte[512];
            byte[] name = "././@LongLink".getBytes(StandardCharsets.US_ASCII);
            System.arraycopy(name, 0, header, 0, name.length);
            System.arraycopy(String.format("%011o", 1L << 30).getBytes(StandardCharsets.US_ASCII), 0, header, 124, 11);
            header[156] = (byte) type;
            System.arraycopy("ustar\u000000".getBytes(StandardCharsets.US_ASCII), 0, header, 257, 8);
            Arrays.fill(header, 148, 156, (byte) ' ');
            int sum = 0;
            for (byte b : header) {
                sum += b & 0xFF;
            }
            System.arraycopy(String.format("%06o\u0000 ", sum).getBytes(StandardCharsets.US_ASCII), 0, header, 148, 8);
            byte[] stream = Arrays.copyOf(header, 512 + 4 * 1024 * 1024);
            Arrays.fill(stream, 512, stream.length, (byte) 'a');
            log.clear();

            send(stream);

            awaitLogged("closing connection");
            assertThat(log).anyMatch(line -> line.contains("a tar header extension of 1073741824 bytes"));
        }
        assertAGoodArchiveIsReceived();
    }

    @Test
    void aSenderThatStallsIsClosedAfterTheIdleTimeout() throws Exception {
        receiver = start(Map.of("format", "tar", "idle-timeout", "1s"));
        byte[] archive = tar(file("slow.bin", new byte[100_000]));

        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), receiver.address().getPort())) {
            socket.getOutputStream().write(archive, 0, 5_000);
            awaitLogged("sent nothing for too long");
        }

        assertThat(destination.resolve("slow.bin")).doesNotExist();
        assertAGoodArchiveIsReceived();
    }

    @Test
    void onceItTakesOneArchiveAndReportsHowItWent() throws Exception {
        receiver = start(Map.of("format", "tar", "once", "true"));
        send(tar(file("one.txt", "one")));
        receiver.finished().toCompletableFuture().get(30, TimeUnit.SECONDS);
        assertThat(Files.readString(destination.resolve("one.txt"))).isEqualTo("one");
        receiver.close();

        receiver = start(Map.of("format", "tar", "once", "true"));
        send(Arrays.copyOf(tar(file("cut.bin", new byte[50_000])), 20_000));
        assertThatThrownBy(() -> receiver.finished().toCompletableFuture().get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(MoverException.class).hasMessageContaining("ended early");
        assertThat(destination.resolve("cut.bin")).doesNotExist();
    }

    @Test
    void plainTarIsRefusedOffLoopbackUnlessInsecurePlainSaysSo() {
        TcpSinkFactory factory = new TcpSinkFactory();
        PluginConfig config = factory.receiverConfigSpec().parse(Map.of("format", "tar+zstd"));

        assertThatThrownBy(() -> factory.listen(new InetSocketAddress("0.0.0.0", 0), config, key -> null, List.of(), context()))
                .isInstanceOf(MoverException.class).hasMessageContaining("not loopback").hasMessageContaining("--insecure-plain");
        assertThatThrownBy(() -> factory.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                factory.receiverConfigSpec().parse(Map.of("format", "tar", "token", "s3cret")), key -> null, List.of(), context()))
                .hasMessageContaining("no authentication").hasMessageNotContaining("s3cret");
        assertThatThrownBy(() -> factory.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                factory.receiverConfigSpec().parse(Map.of("once", "true")), key -> null, List.of(), context()))
                .hasMessageContaining("apply to the plain tar formats only");
    }

    private void assertAGoodArchiveIsReceived() throws Exception {
        log.clear();
        byte[] archive = tar(file("good/after.txt", "after"));
        send(format.equals("tar+zstd") ? zstd(archive) : archive);
        awaitLogged("received");
        assertThat(Files.readString(destination.resolve("good/after.txt"))).isEqualTo("after");
    }

    private PeerReceiver start(Map<String, String> settings) {
        format = settings.get("format");
        TcpSinkFactory factory = new TcpSinkFactory();
        Map<String, String> config = new HashMap<>(settings);
        return factory.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), factory.receiverConfigSpec().parse(config),
                jobKey -> new LocalPlugin().sinkFactories().getFirst().create(EndpointUri.parse(destination.toString()), PluginConfig.EMPTY,
                        new PluginContext(jobKey, temp, Clock.systemUTC(), context().logger())), List.of(), context());
    }

    private PluginContext context() {
        return new PluginContext("receiver", temp, Clock.systemUTC(), new ListLogger(log));
    }

    private void send(byte[] bytes) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), receiver.address().getPort())) {
            socket.getOutputStream().write(bytes);
            socket.shutdownOutput();
            // wait for the receiver to close its side: it has then dealt with the archive
            socket.setSoTimeout(30_000);
            socket.getInputStream().readAllBytes();
        }
        catch (java.net.SocketException reset) {
            // a receiver that refuses an archive resets the connection; the log says why
        }
    }

    private void awaitLogged(String fragment) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (log.stream().noneMatch(line -> line.contains(fragment))) {
            assertThat(System.nanoTime()).as("'" + fragment + "' was not logged: " + log).isLessThan(deadline);
            Thread.sleep(10);
        }
    }

    // ---- archives built by hand, as a hostile sender would ----

    private interface Member {
        void writeTo(TarArchiveOutputStream tar) throws IOException;
    }

    private static Member file(String name, String text) {
        return file(name, text.getBytes(StandardCharsets.UTF_8));
    }

    private static Member file(String name, byte[] content) {
        return tar -> {
            TarArchiveEntry entry = new TarArchiveEntry(name, true);
            entry.setSize(content.length);
            tar.putArchiveEntry(entry);
            tar.write(content);
            tar.closeArchiveEntry();
        };
    }

    private static Member link(String name, String target) {
        return link(TarConstants.LF_SYMLINK, name, target);
    }

    private static Member hardLink(String name, String target) {
        return link(TarConstants.LF_LINK, name, target);
    }

    private static Member link(byte type, String name, String target) {
        return tar -> {
            TarArchiveEntry entry = new TarArchiveEntry(name, type, true);
            entry.setLinkName(target);
            tar.putArchiveEntry(entry);
            tar.closeArchiveEntry();
        };
    }

    private static Member device(String name) {
        return tar -> {
            TarArchiveEntry entry = new TarArchiveEntry(name, TarConstants.LF_CHR, true);
            entry.setDevMajor(1);
            entry.setDevMinor(3);
            tar.putArchiveEntry(entry);
            tar.closeArchiveEntry();
        };
    }

    private static byte[] tar(Member... members) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(bytes)) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            for (Member member : members) {
                member.writeTo(tar);
            }
        }
        return bytes.toByteArray();
    }

    private static byte[] zstd(byte[] data) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (OutputStream out = new io.airlift.compress.v3.zstd.ZstdOutputStream(bytes)) {
            out.write(data);
        }
        return bytes.toByteArray();
    }

    private static byte[] gzip(byte[] data) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (OutputStream out = new java.util.zip.GZIPOutputStream(bytes)) {
            out.write(data);
        }
        return bytes.toByteArray();
    }
}
