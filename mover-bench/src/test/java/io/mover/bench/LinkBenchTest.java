package io.mover.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import io.mover.core.engine.CancellationToken;
import io.mover.core.plugin.PluginRegistry;
import io.mover.spi.EndpointUri;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.PeerReceiver;
import io.mover.spi.PeerReceivers;
import io.mover.spi.PluginContext;
import io.mover.spi.SinkFactory;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A tcp:// target: the streams × codecs sweep against a real receiver (as {@code mover receive} runs it) on loopback. */
@Timeout(120)
class LinkBenchTest {
    @TempDir
    Path temp;

    private final PluginRegistry registry = PluginRegistry.fromClassPath();
    private PeerReceiver receiver;
    private Path root;

    @BeforeEach
    void receive() throws IOException {
        root = Files.createDirectories(temp.resolve("received"));
        Path scratch = Files.createDirectories(temp.resolve("receiver-scratch"));
        PeerReceivers receivers = (PeerReceivers) registry.sink("tcp");
        SinkFactory local = registry.sink("file");
        System.Logger logger = System.getLogger("receiver");
        receiver = receivers.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), receivers.receiverConfigSpec().parse(Map.of()),
                jobKey -> local.create(EndpointUri.parse(root.toString()), local.configSpec().parse(Map.of()),
                        new PluginContext(jobKey, scratch, Clock.systemUTC(), logger)),
                registry.codecs(), new PluginContext("receiver", scratch, Clock.systemUTC(), logger));
    }

    @AfterEach
    void stop() {
        receiver.close();
    }

    private BenchReport run(List<Integer> streams, List<String> codecs) throws IOException {
        String target = "tcp://127.0.0.1:" + receiver.address().getPort() + "/scratch";
        TransferSettings settings = new TransferSettings(target, Map.of(), 6, 64 * 1024, "text", List.of(1, 4), 256 * 1024, "none", false,
                "mover-bench", streams, codecs);
        return new TransferBench(registry, Clock.systemUTC(), Files.createDirectories(temp.resolve("bench-scratch"))).run(settings,
                BenchProgress.NONE, new CancellationToken());
    }

    @Test
    void sweepsStreamsAndCodecsAndRecommendsACell() throws IOException {
        BenchReport report = run(List.of(1, 2), List.of("none", "lz4", "zstd:1", "auto"));

        assertThat(report.sweep()).extracting(p -> p.streams() + " " + p.codec()).containsExactly("1 none", "1 lz4", "1 zstd:1", "1 auto",
                "2 none", "2 lz4", "2 zstd:1", "2 auto");
        for (BenchReport.SweepPoint cell : report.sweep()) {
            assertThat(cell.concurrency()).as("the largest --concurrency").isEqualTo(4);
            assertThat(cell.write().files()).isEqualTo(6);
            assertThat(cell.write().bytes()).isEqualTo(6L * 64 * 1024);
            assertThat(cell.write().bytesPerSecond()).isPositive();
            assertThat(cell.read()).as("a link is written only").isNull();
            assertThat(cell.stages()).extracting(BenchReport.StageFigure::stage).contains("SEND");
            assertThat(cell.latencies()).extracting(BenchReport.Latency::operation).contains("create", "write", "commit");
        }
        assertThat(report.sweep()).filteredOn(p -> p.codec().equals("lz4")).allSatisfy(p -> assertThat(p.codecUsed()).startsWith("lz4"));
        assertThat(report.sweep()).filteredOn(p -> p.codec().equals("auto")).allSatisfy(p -> assertThat(p.codecUsed()).startsWith("auto"));
        assertThat(report.notes()).anySatisfy(note -> assertThat(note).startsWith("2 streams, auto: auto"));
        BenchReport.Recommendation r = report.recommendation();
        assertThat(r.streams()).isIn(1, 2);
        assertThat(r.codec()).isIn("none", "lz4", "zstd:1", "auto");
        assertThat(r.options()).isEqualTo("--streams " + r.streams() + " --codec " + r.codec() + " --concurrency 4 --block-size 256KiB");
        BenchReport.SweepPoint chosen = r.point(report.sweep());
        double best = report.sweep().stream().mapToDouble(p -> p.write().bytesPerSecond()).max().orElseThrow();
        assertThat(chosen.write().bytesPerSecond()).isGreaterThanOrEqualTo(best * Recommend.NEAR_BEST);
        assertThat(report.notes()).anySatisfy(note -> assertThat(note).contains("not read back"))
                .anySatisfy(note -> assertThat(note).startsWith("free space was checked: "));
        try (Stream<Path> left = Files.list(root.resolve("scratch"))) {
            assertThat(left).as("the bench removes what it wrote, across the link too").isEmpty();
        }

        StringWriter text = new StringWriter();
        TextReport.write(report, new PrintWriter(text));
        assertThat(text.toString()).contains("streams, codec", "2 streams, zstd:1", "Recommended: --streams ");
        assertThat(HtmlReport.of(report)).contains("Streams and codecs", "<svg");
        assertThat(JsonReport.parse(JsonReport.of(report))).isEqualTo(report);
    }

    @Test
    void moreThanTheReceiverHasFreeIsRefusedBeforeWriting() throws IOException {
        String target = "tcp://127.0.0.1:" + receiver.address().getPort() + "/scratch";
        TransferSettings huge = new TransferSettings(target, Map.of(), 1_000_000, 1L << 40, "zeros", List.of(1), 1 << 20, "none", false,
                "mover-bench", List.of(1), List.of("none"));

        assertThatThrownBy(() -> new TransferBench(registry, Clock.systemUTC(), Files.createDirectories(temp.resolve("bench-scratch"))).run(huge,
                BenchProgress.NONE, new CancellationToken())).isInstanceOfSatisfying(MoverException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.NO_SPACE);
                    assertThat(e.getMessage()).contains("to " + target + ", which has ", "free; nothing was written");
                });
        try (Stream<Path> left = Files.list(root.resolve("scratch"))) {
            assertThat(left).isEmpty();
        }
    }

    @Test
    void aCodecThatCannotBeUsedIsSkippedWithANote() throws IOException {
        BenchReport report = run(List.of(1), List.of("none", "nosuch"));

        assertThat(report.sweep()).extracting(BenchReport.SweepPoint::codec).containsExactly("none");
        assertThat(report.notes()).anySatisfy(note -> assertThat(note).startsWith("codec nosuch was skipped: ").contains("nosuch"));
        assertThat(report.recommendation().codec()).isEqualTo("none");
    }
}
