package io.mover.core.engine;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.mover.core.plugin.PluginRegistry;
import io.mover.spi.CodecFactory;
import io.mover.spi.EndpointUri;
import io.mover.spi.Entry;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.MoverPlugin;
import io.mover.spi.PluginConfig;
import io.mover.spi.PluginContext;
import io.mover.spi.ServerSideCopy;
import io.mover.spi.Sink;
import io.mover.spi.SinkFactory;
import io.mover.spi.SinkWriter;
import io.mover.spi.Source;
import io.mover.spi.SourceFactory;
import io.mover.spi.SourceReader;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** When the engine hands a file to the sink's own copy, and how it falls back to streaming. */
final class ServerSideCopyTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    @TempDir
    private Path scratch;

    private final MemoryPlugin memory = new MemoryPlugin();
    private final MemoryStore src = memory.store("src");
    private final MemoryStore dst = memory.store("dst");
    private final AtomicInteger calls = new AtomicInteger();

    /** Plugin {@code ssc}: a sink over the memory store "dst" that copies by itself when {@code accept}. */
    private MoverPlugin serverSide(boolean accept) {
        return serverSide((source, entry, target) -> accept ? Optional.of(copyThrough(source, entry, target)) : Optional.empty());
    }

    /** Plugin {@code ssc} whose own copy is {@code copy}. */
    private MoverPlugin serverSide(ServerSideCopy copy) {
        Sink sink = (Sink) Proxy.newProxyInstance(Sink.class.getClassLoader(), new Class<?>[] {Sink.class, ServerSideCopy.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("copyFrom")) {
                        calls.incrementAndGet();
                        return copy.copyFrom((Source) args[0], (Entry) args[1], (io.mover.spi.RelativePath) args[2]);
                    }
                    try {
                        return method.invoke(dst, args);
                    }
                    catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        return new MoverPlugin() {
            public String name() { return "ssc"; }
            public String version() { return "test"; }
            // the destination reads back too, for --verify
            public List<SourceFactory> sourceFactories() {
                return List.of(new SourceFactory() {
                    public String scheme() { return "ssc"; }
                    public Source create(EndpointUri uri, PluginConfig config, PluginContext context) { return dst; }
                });
            }
            public List<CodecFactory> codecFactories() { return List.of(); }
            public List<SinkFactory> sinkFactories() {
                return List.of(new SinkFactory() {
                    public String scheme() { return "ssc"; }
                    public Sink create(EndpointUri uri, PluginConfig config, PluginContext context) { return sink; }
                });
            }
        };
    }

    /** What a real server-side copy does, without the engine's buffers: read it all, write it all, commit. */
    private Entry copyThrough(Source source, Entry entry, io.mover.spi.RelativePath target) {
        ByteBuffer bytes = ByteBuffer.allocate((int) entry.size());
        try (SourceReader reader = source.open(entry.path())) {
            reader.read(0, bytes);
        }
        SinkWriter writer = dst.create(target, entry.size(), entry);
        writer.write(0, bytes.flip());
        return writer.commit();
    }

    private JobSummary copy(boolean accept, TransferOptions options) {
        return copy(serverSide(accept), options, new CancellationToken());
    }

    private JobSummary copy(MoverPlugin plugin, TransferOptions options, CancellationToken cancellation) {
        TransferEngine engine = new TransferEngine(PluginRegistry.of(List.of(memory, plugin), "test"), Clock.systemUTC());
        PreparedJob job = engine.prepare(JobSpec.copy("mem://src", "ssc://dst", options), "job1", scratch);
        try {
            return engine.run(job, JobListener.NONE, cancellation);
        }
        finally {
            job.close();
        }
    }

    private static TransferOptions.Builder options() {
        return TransferOptions.builder().blockSize(4096).largeFiles(64 * 1024, 16 * 1024).bufferPoolBytes(1 << 20)
                .retries(1, Duration.ofMillis(1)).progressInterval(Duration.ofMillis(20));
    }

    private void tree() {
        Random random = new Random(3);
        for (int i = 0; i < 5; i++) {
            byte[] data = new byte[i == 0 ? 300_000 : 5_000 * i];
            random.nextBytes(data);
            src.file("d/f" + i, data, T0.plusSeconds(i));
        }
    }

    private void assertSameTree() {
        for (int i = 0; i < 5; i++) {
            assertThat(dst.data("d/f" + i)).as("d/f" + i).isEqualTo(src.data("d/f" + i));
        }
    }

    @Test
    void eachFileIsOneServerSideCopyMeteredAsWrite() {
        tree();

        JobSummary summary = copy(true, options().build());

        assertThat(summary.state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(summary.filesTransferred()).isEqualTo(5);
        assertThat(calls).hasValue(5); // the 300 kB file too: one call, not one per range
        assertSameTree();
        StageStats write = summary.stages().stream().filter(s -> s.stage() == Stage.WRITE).findFirst().orElseThrow();
        StageStats read = summary.stages().stream().filter(s -> s.stage() == Stage.READ).findFirst().orElseThrow();
        assertThat(write.bytes()).isEqualTo(300_000 + 5_000 * (1 + 2 + 3 + 4));
        assertThat(read.bytes()).isZero();
    }

    @Test
    void aSinkThatDeclinesIsAskedOnceAndTheBytesStream() {
        tree();

        JobSummary summary = copy(false, options().concurrency(1).build());

        assertThat(summary.state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(calls).hasValue(1);
        assertSameTree();
    }

    @Test
    void verifyAndCodecsNeedTheBytesSoTheyStream() {
        tree();

        assertThat(copy(true, options().verify(true).build()).state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(copy(true, options().codec("test-deflate").build()).state()).isEqualTo(JobState.SUCCEEDED);

        assertThat(calls).hasValue(0);
        assertSameTree();
    }

    /**
     * A cancel interrupts a server-side copy under way (SPI 1.5), which then stops: the job ends cancelled at
     * once, not when the copy would have, with no failure reported for the file it stopped.
     */
    @Test
    void aCancelInterruptsTheSinksOwnCopy() throws Exception {
        src.file("big", new byte[10], T0);
        CancellationToken cancellation = new CancellationToken();
        CountDownLatch started = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        MoverPlugin plugin = serverSide((source, entry, target) -> {
            started.countDown();
            try {
                Thread.sleep(Duration.ofSeconds(30));   // a copy of many gigabytes
                return Optional.empty();
            }
            catch (InterruptedException e) {
                interrupted.set(true);
                throw new MoverException(ErrorCode.CANCELLED, "copy cancelled");
            }
        });
        Thread canceller = Thread.ofVirtual().start(() -> {
            try {
                if (started.await(10, TimeUnit.SECONDS)) {
                    cancellation.cancel();
                }
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });

        long start = System.nanoTime();
        JobSummary summary = copy(plugin, options().build(), cancellation);
        canceller.join(Duration.ofSeconds(10));

        assertThat(interrupted).as("the copy was interrupted").isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(20));
        assertThat(summary.state()).isEqualTo(JobState.CANCELLED);
        assertThat(summary.filesFailed()).isZero();
        assertThat(dst.data("big")).isNull();
    }
}
