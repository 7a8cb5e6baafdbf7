package io.mover.bench;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.stream.Stream;

import io.mover.core.engine.CancellationToken;
import io.mover.core.engine.JobKind;
import io.mover.core.engine.JobSpec;
import io.mover.core.engine.JobState;
import io.mover.core.engine.JobSummary;
import io.mover.core.engine.PreparedJob;
import io.mover.core.engine.TransferEngine;
import io.mover.core.engine.TransferOptions;
import io.mover.core.plugin.PluginRegistry;
import io.mover.spi.CodecFactory;
import io.mover.spi.EndpointUri;
import io.mover.spi.Entry;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.MoverPlugin;
import io.mover.spi.PluginContext;
import io.mover.spi.RelativePath;
import io.mover.spi.Sink;
import io.mover.spi.SinkFactory;
import io.mover.spi.Source;
import io.mover.spi.SourceFactory;

import static java.util.Objects.requireNonNull;

/**
 * Transfer mode: for each concurrency, the engine copies {@code gen://} files into the bench folder on
 * the target (through a timed sink), the target's source plugin reads them back, and the bench deletes
 * them again (unless asked to keep them). The report names the best concurrency, the stage that limited
 * it, and the options to use.
 */
public final class TransferBench {
    private final PluginRegistry registry;
    private final Clock clock;
    private final Path scratch;

    public TransferBench(PluginRegistry registry, Clock clock, Path scratch) {
        this.registry = requireNonNull(registry, "registry is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.scratch = requireNonNull(scratch, "scratch is null");
    }

    /** Runs the sweep; {@code progress} is told of each phase (writing, then reading back, per concurrency). */
    public BenchReport run(TransferSettings settings, BenchProgress progress, CancellationToken cancellation) {
        EndpointUri target = EndpointUri.parse(settings.target());
        SinkFactory sinkFactory = registry.sink(target.scheme());
        SourceFactory readFactory = registry.findSource(target.scheme()).orElseThrow(() -> new MoverException(ErrorCode.UNSUPPORTED,
                "mover bench reads its files back, and no installed plugin reads " + target.scheme() + ":// locations"));
        SourceFactory gen = registry.findSource("gen").orElseThrow(() -> new MoverException(ErrorCode.UNSUPPORTED,
                "mover bench needs the gen plugin (gen://) for its data; install mover-plugin-gen"));
        List<String> notes = new ArrayList<>();
        long needed = settings.keep() ? Math.multiplyExact(settings.bytesPerStep(), settings.concurrencies().size()) : settings.bytesPerStep();
        checkSpace(settings.target(), needed, settings.keep() ? "--files or --size, or drop --keep" : "--files or --size", notes);

        PluginContext context = new PluginContext("bench", scratch, clock, System.getLogger("io.mover.bench"));
        List<BenchReport.SweepPoint> sweep = new ArrayList<>();
        try (Sink sink = openTarget(sinkFactory, target, settings)) {
            BenchFolder folder = BenchFolder.open(sink, settings.folder(), settings.target(), clock);
            try {
                for (int step = 0; step < settings.concurrencies().size() && !cancellation.isCancelled(); step++) {
                    int concurrency = settings.concurrencies().get(step);
                    RelativePath stepFolder = folder.run().resolve("c" + concurrency + "-" + step);
                    GenTree tree = GenTree.of(gen, settings.generator(step), context);
                    try {
                        sweep.add(step(settings, step, concurrency, stepFolder, tree, gen, sinkFactory, readFactory, context, progress, cancellation));
                    }
                    finally {
                        // also after a failed or cancelled step: what it wrote goes, by name
                        if (!settings.keep()) {
                            notes.addAll(folder.remove(stepFolder, tree.files(), tree.directories()));
                        }
                    }
                }
            }
            finally {
                if (settings.keep()) {
                    notes.add("the files written are kept in " // query hidden: it may hold a SAS
                            + EndpointUri.parse(Locations.child(settings.target(), folder.run().toString())).toString());
                }
                else {
                    notes.addAll(folder.close());
                }
            }
        }
        String described = settings.files() + " files of " + Sizes.bytes(settings.fileSize()) + " (" + settings.data() + " data) per step, concurrency "
                + settings.concurrencies() + ", block size " + Sizes.bytes(settings.blockSize()) + ", codec " + settings.codec();
        return new BenchReport("transfer", target.toString(), clock.instant().toString(), described, sweep,
                Recommend.from(sweep, settings), List.of(), List.of(), notes);
    }

    private Sink openTarget(SinkFactory factory, EndpointUri target, TransferSettings settings) {
        PluginContext context = new PluginContext("bench", scratch, clock, System.getLogger("io.mover.bench"));
        try {
            return factory.create(target, factory.configSpec().parse(settings.targetConfig()), context);
        }
        catch (MoverException e) {
            throw notWritable(target, e);
        }
    }

    /** A target the sink cannot open for writing, said as such; other errors (bad settings) as they are. */
    static MoverException notWritable(EndpointUri target, MoverException e) {
        if (e.code() == ErrorCode.PERMISSION_DENIED || e.code() == ErrorCode.NOT_A_DIRECTORY || e.code() == ErrorCode.IO_ERROR) {
            return new MoverException(e.code(), "the target " + target + " is not writable: " + e.getMessage()
                    + "; choose a folder you can write to", e);
        }
        return e;
    }

    /** Refuses, before anything is written, a bench that would not fit in the target's free space. */
    static void checkSpace(String location, long needed, String option, List<String> notes) {
        OptionalLong usable = Locations.usableSpace(location);
        if (usable.isEmpty()) {
            notes.add("free space was not checked: " + EndpointUri.parse(location).scheme() + ":// targets do not report it");
        }
        else if (needed > usable.getAsLong()) {
            throw new MoverException(ErrorCode.NO_SPACE, "the bench would write " + Sizes.bytes(needed) + " to " + EndpointUri.parse(location)
                    + ", which has " + Sizes.bytes(usable.getAsLong()) + " free; nothing was written: lower " + option);
        }
    }

    private BenchReport.SweepPoint step(TransferSettings settings, int step, int concurrency, RelativePath stepFolder, GenTree tree,
            SourceFactory gen, SinkFactory sinkFactory, SourceFactory readFactory, PluginContext context, BenchProgress progress,
            CancellationToken cancellation) {
        OpTimers timers = new OpTimers();
        PluginRegistry timed = PluginRegistry.of(List.of(new BenchPlugin(gen, new TimedSink.Factory(sinkFactory, timers), registry.codecs())), "bench");
        TransferEngine engine = new TransferEngine(timed, clock);
        String destination = Locations.child(settings.target(), stepFolder.toString());
        TransferOptions options = TransferOptions.defaults().toBuilder().concurrency(concurrency).blockSize(settings.blockSize())
                .codec(settings.codec()).retries(0, Duration.ofMillis(100)).progressInterval(Duration.ofMillis(100)).build();
        JobSpec spec = new JobSpec(JobKind.COPY, settings.generator(step), destination, Map.of(), settings.targetConfig(), options);
        Timeline timeline = new Timeline();
        int steps = 2 * settings.concurrencies().size();
        progress.phase("concurrency " + concurrency + ": writing " + settings.files() + " files of " + Sizes.bytes(settings.fileSize()), 2 * step, steps);
        JobSummary summary;
        try (PreparedJob job = engine.prepare(spec, "bench-" + step, scratch)) {
            summary = engine.run(job, timeline, cancellation);
        }
        if (summary.state() != JobState.SUCCEEDED) {
            String why = summary.error().orElseGet(() -> summary.failures().isEmpty() ? summary.state().name()
                    : summary.failures().getFirst().path() + ": " + summary.failures().getFirst().message());
            throw new MoverException(summary.errorCode().orElse(ErrorCode.IO_ERROR), "writing to the target failed at concurrency "
                    + concurrency + ": " + why);
        }
        BenchReport.Phase write = BenchReport.Phase.of(summary.filesTransferred(), summary.bytesTransferred(), summary.elapsed().toNanos());
        progress.phase("concurrency " + concurrency + ": " + Sizes.rate(write.bytesPerSecond()) + " written; reading back", 2 * step + 1, steps);
        BenchReport.Phase read;
        try (Source back = readFactory.create(EndpointUri.parse(destination), readFactory.configSpec().parse(known(readFactory, settings.targetConfig())), context)) {
            read = ReadBack.read(back, tree.files(), concurrency, settings.blockSize(), timers, cancellation);
        }
        List<BenchReport.StageFigure> stages = summary.stages().stream().map(s -> new BenchReport.StageFigure(s.stage().name(), s.bytes(),
                s.operations(), s.busy().toNanos() / 1e9, s.waiting().toNanos() / 1e9, s.shareOfBusy(), s.bytesPerBusySecond())).toList();
        return new BenchReport.SweepPoint(concurrency, write, read, stages, summary.bottleneck().map(b -> b.stage().name()).orElse(null),
                summary.bottleneck().map(b -> b.explanation()).orElse(null), timers.latencies(), timeline.samples());
    }

    /** The target's settings the reading plugin knows (a sink's {@code fsync} means nothing to a reader). */
    static Map<String, String> known(SourceFactory factory, Map<String, String> config) {
        Map<String, String> known = new java.util.LinkedHashMap<>(config);
        known.keySet().removeIf(key -> factory.configSpec().key(key).isEmpty());
        return known;
    }

    /** The engine of a step sees gen://, the timed target, and the installed codecs; nothing else. */
    private record BenchPlugin(SourceFactory gen, SinkFactory sink, Collection<CodecFactory> codecs) implements MoverPlugin {
        @Override
        public String name() {
            return "bench";
        }

        @Override
        public String version() {
            return "bench";
        }

        @Override
        public List<SourceFactory> sourceFactories() {
            return List.of(gen);
        }

        @Override
        public List<SinkFactory> sinkFactories() {
            return List.of(sink);
        }

        @Override
        public List<CodecFactory> codecFactories() {
            return List.copyOf(codecs);
        }
    }

    /** The files and folders of one generated step, as relative paths, from its own listing. */
    record GenTree(List<RelativePath> files, List<RelativePath> directories) {
        static GenTree of(SourceFactory gen, String uri, PluginContext context) {
            List<RelativePath> files = new ArrayList<>();
            List<RelativePath> directories = new ArrayList<>();
            try (Source source = gen.create(EndpointUri.parse(uri), gen.configSpec().parse(Map.of()), context)) {
                walk(source, RelativePath.ROOT, files, directories);
            }
            directories.sort(Comparator.comparingInt(RelativePath::depth).reversed());
            return new GenTree(files, directories);
        }

        private static void walk(Source source, RelativePath directory, List<RelativePath> files, List<RelativePath> directories) {
            List<Entry> entries;
            try (Stream<Entry> listing = source.list(directory)) {
                entries = listing.toList();
            }
            for (Entry entry : entries) {
                if (entry.isDirectory()) {
                    directories.add(entry.path());
                    walk(source, entry.path(), files, directories);
                }
                else {
                    files.add(entry.path());
                }
            }
        }
    }
}
