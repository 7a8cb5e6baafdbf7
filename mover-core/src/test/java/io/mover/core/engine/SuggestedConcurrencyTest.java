package io.mover.core.engine;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.mover.core.plugin.PluginRegistry;
import io.mover.spi.CodecFactory;
import io.mover.spi.EndpointUri;
import io.mover.spi.FilesInFlight;
import io.mover.spi.MoverPlugin;
import io.mover.spi.PluginConfig;
import io.mover.spi.PluginContext;
import io.mover.spi.Sink;
import io.mover.spi.SinkFactory;
import io.mover.spi.Source;
import io.mover.spi.SourceFactory;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** The files in flight of a job whose user set none: what its endpoints suggest (SPI FilesInFlight), within bounds. */
final class SuggestedConcurrencyTest {
    private final MemoryPlugin memory = new MemoryPlugin();
    private final MemoryStore src = memory.store("src");
    private final MemoryStore dst = memory.store("dst");
    @TempDir
    private Path scratch;
    /** Counted down by each file the sink creates; a create waits (bounded) until it reaches zero. */
    private CountDownLatch together = new CountDownLatch(0);

    /** Plugin {@code name}: scheme {@code name} over the memory store "dst", suggesting {@code sink} files in flight (0: no suggestion) as a sink, {@code source} as a source. */
    private MoverPlugin suggesting(String name, int sink, int source) {
        Sink suggestingSink = (Sink) proxy(Sink.class, sink, true);
        Source suggestingSource = (Source) proxy(Source.class, source, false);
        return new MoverPlugin() {
            public String name() { return name; }
            public String version() { return "test"; }
            public List<CodecFactory> codecFactories() { return List.of(); }
            public List<SourceFactory> sourceFactories() {
                return List.of(new SourceFactory() {
                    public String scheme() { return name; }
                    public Source create(EndpointUri uri, PluginConfig config, PluginContext context) { return source == 0 ? src : suggestingSource; }
                });
            }
            public List<SinkFactory> sinkFactories() {
                return List.of(new SinkFactory() {
                    public String scheme() { return name; }
                    public Sink create(EndpointUri uri, PluginConfig config, PluginContext context) { return sink == 0 ? dst : suggestingSink; }
                });
            }
        };
    }

    private Object proxy(Class<?> type, int files, boolean sink) {
        Object target = sink ? dst : src;
        return Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type, FilesInFlight.class}, (proxy, method, args) -> {
            if (method.getName().equals("filesInFlight")) {
                return files;
            }
            if (sink && method.getName().equals("create")) {
                together.countDown();
                together.await(10, TimeUnit.SECONDS);
            }
            try {
                return method.invoke(target, args);
            }
            catch (InvocationTargetException e) {
                throw e.getCause();
            }
        });
    }

    private record Ran(JobSummary summary, JobControls controls) {}

    private Ran copy(List<MoverPlugin> plugins, String from, String to, TransferOptions options) {
        TransferEngine engine = new TransferEngine(PluginRegistry.of(plugins, "test"), Clock.systemUTC());
        JobControls controls = JobControls.of(options);
        try (PreparedJob job = engine.prepare(JobSpec.copy(from, to, options), "job1", scratch)) {
            return new Ran(engine.run(job, JobListener.NONE, new CancellationToken(), controls), controls);
        }
    }

    private static TransferOptions.Builder options() {
        return TransferOptions.builder().blockSize(4096).bufferPoolBytes(1 << 20).retries(0, Duration.ofMillis(1))
                .progressInterval(Duration.ofMillis(20));
    }

    private void files(int count) {
        for (int i = 0; i < count; i++) {
            src.file("d/f" + i, new byte[100 + i], Instant.EPOCH);
        }
    }

    @Test
    void unsetConcurrencyTakesTheDestinationsSuggestionAndRunsThatManyFiles() {
        files(64);
        together = new CountDownLatch(40); // more than the default 16 must be in flight at once, or each create waits 10 s

        Ran ran = copy(List.of(memory, suggesting("wide", 40, 0)), "mem://src", "wide://dst", options().build());

        assertThat(ran.summary().state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(ran.controls().concurrency()).isEqualTo(40);
        assertThat(ran.controls().maxInFlight()).isEqualTo(40);
        assertThat(ran.summary().concurrency()).isEqualTo("40 (chosen by wide)");
    }

    @Test
    void aConcurrencyTheUserSetWinsEvenWhenItIsTheDefault() {
        files(8);

        Ran ran = copy(List.of(memory, suggesting("wide", 40, 0)), "mem://src", "wide://dst", options().concurrency(16).build());

        assertThat(ran.controls().concurrency()).isEqualTo(16);
        assertThat(ran.summary().concurrency()).isEqualTo("16 (set)");
        assertThat(copy(List.of(memory, suggesting("wide", 40, 0)), "mem://src", "wide://dst", options().concurrency(3).build())
                .controls().maxInFlight()).isLessThanOrEqualTo(3);
    }

    @Test
    void noSuggestionKeepsTheDefault() {
        files(8);

        Ran ran = copy(List.of(memory), "mem://src", "mem://dst", options().build());

        assertThat(ran.controls().concurrency()).isEqualTo(TransferOptions.DEFAULT_CONCURRENCY);
        assertThat(ran.summary().concurrency()).isEqualTo("16 (default)");
    }

    @Test
    void theLargerOfSourceAndDestinationWins() {
        files(8);

        Ran ran = copy(List.of(memory, suggesting("wide", 0, 48), suggesting("narrow", 24, 0)), "wide://src", "narrow://dst",
                options().build());

        assertThat(ran.summary().concurrency()).isEqualTo("48 (chosen by wide)");
    }

    @Test
    void aSuggestionAboveTheDefaultNeverExceedsTheBufferPoolsBlocks() {
        files(8);

        // 128 KiB of 4 KiB blocks (no codec): 32 blocks, however many files the destination would like
        Ran ran = copy(List.of(memory, suggesting("wide", 1000, 0)), "mem://src", "wide://dst", options().bufferPoolBytes(128 << 10).build());
        assertThat(ran.summary().concurrency()).isEqualTo("32 (chosen by wide, bounded by the buffer pool's 32 blocks)");

        // a pool smaller than the default leaves the default: a suggestion never goes below what the job had
        Ran small = copy(List.of(memory, suggesting("wide", 1000, 0)), "mem://src", "wide://dst", options().bufferPoolBytes(32 << 10).build());
        assertThat(small.controls().concurrency()).isEqualTo(16);

        Ran fewer = copy(List.of(memory, suggesting("wide", 4, 0)), "mem://src", "wide://dst", options().build());
        assertThat(fewer.summary().concurrency()).isEqualTo("4 (chosen by wide)");
    }

    @Test
    void aConcurrencyChangedWhileTheJobRunsIsNotReplacedByALaterRunsSuggestion() {
        JobControls controls = JobControls.of(options().build());
        assertThat(controls.concurrencyText()).isEqualTo("16 (default)");

        controls.suggest(64, "azure-files", 256);
        assertThat(controls.concurrencyText()).isEqualTo("64 (chosen by azure-files)");

        controls.concurrency(20); // PATCH
        controls.suggest(64, "azure-files", 256); // a durable job's next unit
        assertThat(controls.concurrencyText()).isEqualTo("20 (set)");
    }
}
