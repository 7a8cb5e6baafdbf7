package io.mover.plugins.tcp.tar;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.mover.plugins.tcp.TcpSinkFactory;
import io.mover.spi.Attributes;
import io.mover.spi.BlockHeader;
import io.mover.spi.EncodedBlockWriter;
import io.mover.spi.EndpointUri;
import io.mover.spi.Entry;
import io.mover.spi.EntryType;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.PluginContext;
import io.mover.spi.RelativePath;
import io.mover.spi.Sink;
import io.mover.spi.SinkWriter;
import io.mover.spi.SymbolicLinks;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The tar sink against the real tools: {@code nc -l PORT | zstd -d | tar x} unpacks what it sends, byte for
 * byte, while files are written the way the engine writes them (several at once, a large file in ranges on
 * several threads, as raw encoded blocks).
 */
@Timeout(120)
class TarSenderTest {
    private static final int RANGE = 1024 * 1024 + 4096;
    private static final int BLOCK = 256 * 1024;

    @TempDir
    Path temp;

    @ParameterizedTest
    @ValueSource(strings = {"tar", "tar+zstd", "tar+lz4", "tar+gzip", "tar+zstd:1", "tar+gzip:1"})
    void theToolsUnpackWhatItSendsByteForByte(String format) throws Exception {
        TarFormat.Compression compression = TarFormat.parse(format).orElseThrow().compression();
        Path source = SampleTree.create(temp.resolve("src"));
        Path destination = Files.createDirectories(temp.resolve("dst"));
        int port = Tools.freePort();
        Tools.Pipeline receiver = untarWithTools(port, compression, destination);

        try (Sink sink = connect(port, "inbox", format)) {
            send(source, sink);
            sink.finish();
        }

        assertThat(receiver.await()).as(receiver.output()).isZero();
        Path inbox = destination.resolve("inbox");
        assertThat(Tools.digests(inbox)).isEqualTo(Tools.digests(source));
        // PAX keeps the time to 100 ns (commons-compress writes 7 digits)
        assertThat(Files.getLastModifiedTime(inbox.resolve("a/b/text.txt")).toInstant().truncatedTo(ChronoUnit.MICROS)).isEqualTo(SampleTree.TIME.truncatedTo(ChronoUnit.MICROS));
        assertThat(Files.getLastModifiedTime(inbox.resolve("a/b")).toInstant().truncatedTo(ChronoUnit.MICROS))
                .isEqualTo(SampleTree.TIME.minusSeconds(3600).truncatedTo(ChronoUnit.MICROS));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(inbox.resolve("a/b/private.txt")))).isEqualTo("rw-------");
    }

    @Test
    void aFileAbortedBeforeItsFirstByteIsLeftOutAndTheArchiveStaysWhole() throws Exception {
        Path destination = Files.createDirectories(temp.resolve("dst"));
        int port = Tools.freePort();
        Tools.Pipeline receiver = untarWithTools(port, TarFormat.Compression.ZSTD, destination);

        try (Sink sink = connect(port, "", "tar+zstd")) {
            SinkWriter skipped = sink.create(RelativePath.of("skipped.txt"), 5, file("skipped.txt", 5));
            SinkWriter kept = sink.create(RelativePath.of("kept.txt"), 4, file("kept.txt", 4));
            skipped.abort();
            kept.write(0, ByteBuffer.wrap("kept".getBytes()));
            kept.commit();
            sink.finish();
        }

        assertThat(receiver.await()).as(receiver.output()).isZero();
        assertThat(Files.readString(destination.resolve("kept.txt"))).isEqualTo("kept");
        assertThat(destination.resolve("skipped.txt")).doesNotExist();
    }

    @Test
    void aFileAbortedHalfwayBreaksTheStreamSoTarReportsIt() throws Exception {
        Path destination = Files.createDirectories(temp.resolve("dst"));
        int port = Tools.freePort();
        Tools.Pipeline receiver = untarWithTools(port, TarFormat.Compression.ZSTD, destination);

        try (Sink sink = connect(port, "", "tar+zstd")) {
            SinkWriter half = sink.create(RelativePath.of("half.bin"), 3 * BLOCK, file("half.bin", 3 * BLOCK));
            half.write(0, ByteBuffer.allocate(BLOCK));
            // until its header went out, an aborted file is simply left out; wait until it did
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (!((TarWriter) half).started()) {
                assertThat(System.nanoTime()).isLessThan(deadline);
                Thread.sleep(5);
            }
            half.abort();

            assertThatThrownBy(() -> sink.create(RelativePath.of("next.txt"), 1, file("next.txt", 1)))
                    .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.PLUGIN_FAILED))
                    .hasMessageContaining("broke").hasMessageContaining("half.bin was aborted");
        }

        assertThat(receiver.await()).isNotZero();
    }

    @Test
    void aCopyThatStopsBeforeItsEndResetsTheConnectionSoTarDoesNotTakeThePartForTheWhole() throws Exception {
        Path destination = Files.createDirectories(temp.resolve("dst"));
        int port = Tools.freePort();
        Tools.Pipeline receiver = untarWithTools(port, TarFormat.Compression.NONE, destination);

        try (Sink sink = connect(port, "", "tar")) {
            SinkWriter whole = sink.create(RelativePath.of("whole.txt"), 5, file("whole.txt", 5));
            whole.write(0, ByteBuffer.wrap("whole".getBytes()));
            whole.commit();
            // a cancelled or failed job closes its sink without finish()
        }

        assertThat(receiver.await()).isNotZero();
    }

    @Test
    void whatATarStreamCannotDoIsRefusedByName() throws Exception {
        Tools.assumeInstalled("nc", "bash");
        int port = Tools.freePort();
        Tools.Pipeline receiver = Tools.Pipeline.start(Tools.listen(port) + " > /dev/null", temp.resolve("receiver.log"));
        Tools.awaitListening(port);
        try (Sink sink = connect(port, "", "tar")) {
            assertThatThrownBy(() -> sink.list(RelativePath.ROOT)).hasMessageContaining("a tar stream cannot list");
            assertThatThrownBy(() -> sink.stat(RelativePath.of("x"))).hasMessageContaining("--overwrite");
            assertThatThrownBy(() -> sink.delete(RelativePath.of("x"), false)).hasMessageContaining("cannot delete");
        }
        receiver.await();
    }

    @Test
    void withNobodyListeningConnectingFailsInOneLineThatSaysWhatToStart() throws IOException {
        int port = Tools.freePort();
        long start = System.nanoTime();

        assertThatThrownBy(() -> connect(port, "", "tar+lz4", Map.of("connect-timeout", "1s")))
                .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.CONNECTION_LOST))
                .hasMessageContaining("cannot connect to 127.0.0.1:" + port).hasMessageContaining("nc -l " + port + " | lz4 -d | tar x");
        // refusals were tried again for the connect timeout, and no longer
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isBetween(Duration.ofMillis(800), Duration.ofSeconds(5));
    }

    @Test
    void aReceiverThatStartsListeningAMomentAfterTheSenderIsWaitedFor() throws Exception {
        int port = Tools.freePort();
        CompletableFuture<String> received = CompletableFuture.supplyAsync(() -> {
            try {
                Thread.sleep(700);
                try (ServerSocket server = new ServerSocket(port, 1, InetAddress.getLoopbackAddress()); Socket peer = server.accept()) {
                    return new String(peer.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
                }
            }
            catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });

        try (Socket socket = TarInterop.connectWhenListening(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), Duration.ofSeconds(10))) {
            socket.getOutputStream().write("hello".getBytes(StandardCharsets.US_ASCII));
        }

        assertThat(received.get(10, TimeUnit.SECONDS)).isEqualTo("hello");
    }

    @Test
    void aTokenIsRefusedSincePlainTarHasNoAuthentication() {
        TcpSinkFactory factory = new TcpSinkFactory();

        assertThatThrownBy(() -> factory.create(EndpointUri.parse("tcp://127.0.0.1:9/"), factory.configSpec().parse(Map.of("format", "tar", "token", "s3cret")),
                context())).hasMessageContaining("no authentication").hasMessageNotContaining("s3cret");
        assertThatThrownBy(() -> factory.configSpec().parse(Map.of("format", "tar+zstd:40"))).hasMessageContaining("tar+zstd[:1-19]");
    }

    /** {@code nc -l PORT | zstd -d | tar x -C DESTINATION}, listening once this returns. */
    private Tools.Pipeline untarWithTools(int port, TarFormat.Compression compression, Path destination) throws IOException, InterruptedException {
        Tools.assumeInstalled("nc", "tar", "bash", Tools.decompress(compression).split(" ")[0]);
        Tools.Pipeline receiver = Tools.Pipeline.start(Tools.listen(port) + " | " + Tools.decompress(compression) + " | tar x -C " + destination,
                temp.resolve("receiver.log"));
        Tools.awaitListening(port);
        return receiver;
    }

    private Sink connect(int port, String path, String format) {
        return connect(port, path, format, Map.of());
    }

    private Sink connect(int port, String path, String format, Map<String, String> more) {
        TcpSinkFactory factory = new TcpSinkFactory();
        Map<String, String> config = new HashMap<>(more);
        config.put("format", format);
        return factory.create(EndpointUri.parse("tcp://127.0.0.1:" + port + "/" + path), factory.configSpec().parse(config), context());
    }

    private PluginContext context() {
        return new PluginContext("sender", temp, Clock.systemUTC(), System.getLogger("test"));
    }

    private static Entry file(String path, long size) {
        return Entry.file(RelativePath.of(path), size, Instant.parse("2024-01-02T03:04:05Z"));
    }

    /**
     * As the engine does it: writers created in crawl order, each file's ranges on pool threads (a large
     * file's ranges at once), raw encoded blocks, commit once every range is written; links as links;
     * folder entries once their contents are in.
     */
    private static void send(Path root, Sink sink) throws Exception {
        List<Path> paths;
        try (Stream<Path> walk = Files.walk(root)) {
            paths = walk.sorted().toList();
        }
        ExecutorService pool = Executors.newFixedThreadPool(6);
        List<CompletableFuture<Void>> files = new ArrayList<>();
        try {
            for (Path path : paths) {
                RelativePath relative = RelativePath.of(root.relativize(path).toString());
                if (Files.isSymbolicLink(path)) {
                    ((SymbolicLinks) sink).createSymbolicLink(relative, Files.readSymbolicLink(path).toString());
                }
                else if (Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
                    long size = Files.size(path);
                    SinkWriter writer = sink.create(relative, size, entry(path, relative, EntryType.FILE, size));
                    List<CompletableFuture<Void>> ranges = new ArrayList<>();
                    for (long start = 0; start < size; start += RANGE) {
                        long from = start;
                        ranges.add(CompletableFuture.runAsync(() -> writeRange(path, writer, from, Math.min(size, from + RANGE)), pool));
                    }
                    files.add(CompletableFuture.allOf(ranges.toArray(CompletableFuture[]::new)).thenRunAsync(writer::commit, pool));
                }
            }
            CompletableFuture.allOf(files.toArray(CompletableFuture[]::new)).get();
        }
        finally {
            pool.shutdownNow();
        }
        for (Path path : paths.stream().filter(Files::isDirectory).sorted(Comparator.comparingInt(Path::getNameCount).reversed()).toList()) {
            RelativePath relative = RelativePath.of(root.relativize(path).toString());
            sink.setAttributes(relative, entry(path, relative, EntryType.DIRECTORY, 0));
        }
    }

    private static void writeRange(Path path, SinkWriter writer, long start, long end) {
        try (FileChannel channel = FileChannel.open(path)) {
            ByteBuffer block = ByteBuffer.allocateDirect(BLOCK);
            for (long position = start; position < end; position += BLOCK) {
                block.clear().limit((int) Math.min(BLOCK, end - position));
                channel.read(block, position);
                block.flip();
                ((EncodedBlockWriter) writer).writeEncoded(position, new BlockHeader(BlockHeader.RAW, block.remaining(), block.remaining(), 0), block);
            }
        }
        catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static Entry entry(Path path, RelativePath relative, EntryType type, long size) {
        try {
            int mode = 0;
            for (var permission : Files.getPosixFilePermissions(path)) {
                mode |= 1 << (8 - permission.ordinal());
            }
            return new Entry(relative, type, size, Files.getLastModifiedTime(path).toInstant(), Attributes.ofMode(mode));
        }
        catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
