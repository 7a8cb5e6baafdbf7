package io.mover.jobstore.service;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import io.mover.core.engine.JobSpec;
import io.mover.core.engine.JobState;
import io.mover.core.engine.JobSummary;
import io.mover.core.engine.MemoryPlugin;
import io.mover.core.engine.MemoryStore;
import io.mover.core.engine.TransferOptions;
import io.mover.core.plugin.PluginRegistry;
import io.mover.core.service.JobId;
import io.mover.jobstore.JobDatabase;
import io.mover.jobstore.JobStores;
import io.mover.jobstore.NewJob;
import io.mover.jobstore.NewUnit;
import io.mover.jobstore.SchedulerSettings;
import io.mover.plugins.gen.GenSourceFactory;
import io.mover.spi.CodecFactory;
import io.mover.spi.EndpointUri;
import io.mover.spi.Entry;
import io.mover.spi.MoverPlugin;
import io.mover.spi.PluginConfig;
import io.mover.spi.PluginContext;
import io.mover.spi.RelativePath;
import io.mover.spi.Sink;
import io.mover.spi.SinkFactory;
import io.mover.spi.Source;
import io.mover.spi.SourceFactory;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A job whose destination is one sequential stream ({@link SinkFactory#singleStream}, a plain tar to nc): one unit,
 * its sink opened once (not to check, not to crawl, not to set folder times), and an interrupted one FAILED with a
 * clear message rather than continued on a second stream.
 */
@Timeout(120)
class DurableSingleStreamTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    @TempDir
    Path dataDir;

    private final MemoryPlugin memory = new MemoryPlugin();
    private final MemoryStore src = memory.store("src");
    private final MemoryStore dst = memory.store("dst");
    private final AtomicInteger opened = new AtomicInteger();
    private final AtomicInteger finished = new AtomicInteger();
    /** Entries the gen:// source has handed out, and how many when the stream's first file was created (-1 before). */
    private final AtomicLong listed = new AtomicLong();
    private final AtomicLong listedAtFirstFile = new AtomicLong(-1);
    private final PluginRegistry registry = PluginRegistry.of(List.of(memory, stream(), countedGen()), "test");
    private DurableJobService service;

    private void open() {
        SchedulerSettings settings = new SchedulerSettings("node-1", Duration.ofMillis(100), Duration.ofSeconds(1), 4, 4, Duration.ofSeconds(20),
                Clock.systemUTC());
        service = new DurableJobService(JobStores.open(dataDir), registry, dataDir.resolve("scratch"), name -> Optional.empty(), settings,
                Duration.ofMillis(100), 50);
    }

    @AfterEach
    void close() {
        if (service != null) {
            service.close();
        }
    }

    @Test
    void aSingleStreamJobIsOneUnitThroughOneSinkOpenedOnce() throws InterruptedException {
        tree(120);
        open();
        JobId id = service.submit(spec()).id();

        JobSummary summary = await(id);

        assertThat(summary.state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(summary.filesTransferred()).isEqualTo(120);
        assertThat(summary.filesScanned()).as("the totals its crawl found, recorded as it went").isEqualTo(120);
        assertThat(summary.bytesScanned()).isEqualTo(src.filePaths().stream().mapToLong(path -> src.data(path).length).sum());
        for (String path : src.filePaths()) {
            assertThat(dst.data(path)).as(path).isEqualTo(src.data(path));
        }
        assertThat(opened).as("sinks opened: the run's only (units of 50 entries would have made several)").hasValue(1);
        assertThat(finished).hasValue(1);
        service.close();
        service = null;
        try (JobDatabase database = JobStores.open(dataDir)) {
            assertThat(database.store().get(id).orElseThrow().totals().unitsTotal()).isEqualTo(1);
        }
    }

    /**
     * The whole job is one stream, but its list of entries is never held: the unit crawls the source as it sends (a
     * directory's listing consumed as it streams), so the first file goes out after a handful of entries were listed,
     * not after all 1,000,000 were crawled, kept and stored as one manifest. Cancelled at once: the point is the start.
     */
    @Test
    void aMillionEntryStreamStartsSendingBeforeItsCrawlEndsAndKeepsNoManifest() throws InterruptedException {
        open();
        JobId id = service.submit(JobSpec.copy("gen://?files=1000000&size=0", "stream://dst", TransferOptions.builder()
                .blockSize(4096).bufferPoolBytes(1 << 20).retries(1, Duration.ofMillis(1)).concurrency(2).build())).id();
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (listedAtFirstFile.get() < 0 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        service.cancel(id);
        JobSummary summary = await(id);

        assertThat(listedAtFirstFile.get()).as("entries listed when the first file went out").isBetween(1L, 10_000L);
        assertThat(summary.state()).isEqualTo(JobState.CANCELLED);
        assertThat(finished).as("a cancelled stream is not ended as if whole").hasValue(0);
        service.close();
        service = null;
        try (JobDatabase database = JobStores.open(dataDir)) {
            assertThat(database.store().manifest(id, 0).map(Manifests::decode).orElse(List.of())).as("the job's entries are not stored as one unit")
                    .isEmpty();
        }
    }

    @Test
    void aStopInTheMiddleFailsTheJobInsteadOfEndingTheStreamOrSendingASecond() throws InterruptedException {
        tree(200);
        dst.writeDelay(Duration.ofMillis(20));
        open();
        JobId id = service.submit(spec()).id();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (dst.commitCount() < 5 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        service.close();
        service = null;
        dst.writeDelay(Duration.ZERO);

        open();
        JobSummary summary = await(id);
        assertThat(summary.state()).isEqualTo(JobState.FAILED);
        assertThat(summary.error().orElseThrow()).contains("the server stopped while the job's stream was sent", "cannot be resumed",
                "submitted again");
        assertThat(finished).as("a stopped stream is not ended as if whole").hasValue(0);
        assertThat(opened).hasValue(1);
    }

    @Test
    void aUnitAnEarlierAttemptBeganFailsTheJob() throws InterruptedException {
        tree(3);
        JobId id = JobId.random();
        JobSpec spec = spec();
        try (JobDatabase database = JobStores.open(dataDir)) {
            database.store().create(new NewJob(id, spec.kind(), new StoredSpec(registry, name -> Optional.empty()).encode(spec)));
            List<Entry> all = List.of(src.stat(RelativePath.ROOT).orElseThrow(), src.stat(RelativePath.of("d0")).orElseThrow(),
                    src.stat(RelativePath.of("d0/f0.bin")).orElseThrow());
            database.store().addUnits(id, List.of(new NewUnit(0, 1, all.get(2).size(), Manifests.encode(all))));
            database.store().markEnumerationDone(id);
            // a node that crashed while it sent the stream
            assertThat(database.store().beginAttempt(id, 0, "crashed-node")).isPresent();
        }
        open();

        JobSummary summary = await(id);
        assertThat(summary.state()).isEqualTo(JobState.FAILED);
        assertThat(summary.error().orElseThrow()).contains("an earlier attempt of this job was interrupted", "cannot be resumed");
        assertThat(opened).as("no second stream").hasValue(0);
    }

    private void tree(int files) {
        Random random = new Random(1);
        for (int i = 0; i < files; i++) {
            byte[] data = new byte[random.nextInt(5000)];
            random.nextBytes(data);
            src.file("d" + (i % 3) + "/f" + i + ".bin", data, T0.plusSeconds(i));
        }
    }

    private static JobSpec spec() {
        return JobSpec.copy("mem://src", "stream://dst", TransferOptions.builder().blockSize(4096).bufferPoolBytes(1 << 20)
                .retries(1, Duration.ofMillis(1)).concurrency(2).build());
    }

    private JobSummary await(JobId id) throws InterruptedException {
        return service.await(id, Duration.ofSeconds(60)).orElseThrow(() -> new AssertionError("job did not end in 60 s"));
    }

    /** Plugin {@code stream}: the memory store "dst" as a single stream, counting how often it is opened and finished. */
    private MoverPlugin stream() {
        return plugin("stream", List.of(), List.of(new SinkFactory() {
            public String scheme() { return "stream"; }
            public boolean singleStream(EndpointUri uri, PluginConfig config) { return true; }
            public Sink create(EndpointUri uri, PluginConfig config, PluginContext context) {
                opened.incrementAndGet();
                return (Sink) Proxy.newProxyInstance(Sink.class.getClassLoader(), new Class<?>[] {Sink.class}, (proxy, method, args) -> {
                    if (method.getName().equals("finish")) {
                        finished.incrementAndGet();
                    }
                    if (method.getName().equals("create")) {
                        listedAtFirstFile.compareAndSet(-1, listed.get());
                    }
                    return invoke(method, dst, args);
                });
            }
        }));
    }

    /** Plugin {@code gen}: the gen plugin's source, counting the entries its listings hand out. */
    private MoverPlugin countedGen() {
        SourceFactory gen = new GenSourceFactory();
        return plugin("counted-gen", List.of((SourceFactory) Proxy.newProxyInstance(SourceFactory.class.getClassLoader(),
                new Class<?>[] {SourceFactory.class}, (proxy, method, args) -> {
                    Object result = invoke(method, gen, args);
                    return method.getName().equals("create") ? counted((Source) result) : result;
                })), List.of());
    }

    private static MoverPlugin plugin(String name, List<SourceFactory> sources, List<SinkFactory> sinks) {
        return new MoverPlugin() {
            public String name() { return name; }
            public String version() { return "test"; }
            public List<SourceFactory> sourceFactories() { return sources; }
            public List<SinkFactory> sinkFactories() { return sinks; }
            public List<CodecFactory> codecFactories() { return List.of(); }
        };
    }

    private Source counted(Source source) {
        return (Source) Proxy.newProxyInstance(Source.class.getClassLoader(), new Class<?>[] {Source.class}, (proxy, method, args) -> {
            Object result = invoke(method, source, args);
            return method.getName().equals("list") ? ((Stream<?>) result).peek(entry -> listed.incrementAndGet()) : result;
        });
    }

    private static Object invoke(java.lang.reflect.Method method, Object target, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        }
        catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
