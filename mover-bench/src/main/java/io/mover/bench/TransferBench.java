package io.mover.bench;

import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import io.mover.core.engine.CancellationToken;
import io.mover.core.engine.TransferOptions;
import io.mover.core.plugin.PluginRegistry;
import io.mover.spi.EndpointUri;
import io.mover.spi.ErrorCode;
import io.mover.spi.FreeSpace;
import io.mover.spi.LinkSink;
import io.mover.spi.MoverException;
import io.mover.spi.PluginContext;
import io.mover.spi.RelativePath;
import io.mover.spi.Sink;
import io.mover.spi.SinkFactory;
import io.mover.spi.Source;
import io.mover.spi.SourceFactory;

import static java.util.Objects.requireNonNull;

/**
 * Transfer mode: for each step the engine copies {@code gen://} files into the bench folder on the target
 * (through a timed sink), the target's source plugin reads them back, and the bench deletes them again
 * (unless asked to keep them). The steps are the concurrencies; for a target across a link (a sink with
 * {@link LinkSink}: tcp://) they are the cells of streams × codecs, written only (the peer protocol has no
 * reads). The report names the best step, the stage that limited it, and the options to use.
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

    /** One step: a concurrency, or a link's cell (streams, codec) at one concurrency. */
    record Step(int concurrency, Integer streams, String codec) {
        String name(int index) {
            return (streams == null ? "c" + concurrency : "s" + streams + "-" + codec.replaceAll("[^A-Za-z0-9]", "")) + "-" + index;
        }

        String said() {
            return streams == null ? "concurrency " + concurrency : streams + (streams == 1 ? " stream" : " streams") + ", codec " + codec;
        }
    }

    /** Runs the sweep; {@code progress} is told of each phase (writing, then reading back, per step). */
    public BenchReport run(TransferSettings settings, BenchProgress progress, CancellationToken cancellation) {
        EndpointUri target = EndpointUri.parse(settings.target());
        SinkFactory sinkFactory = registry.sink(target.scheme());
        SourceFactory gen = registry.findSource("gen").orElseThrow(() -> new MoverException(ErrorCode.UNSUPPORTED,
                "mover bench needs the gen plugin (gen://) for its data; install mover-plugin-gen"));
        List<String> notes = new ArrayList<>();
        PluginContext context = new PluginContext("bench", scratch, clock, System.getLogger("io.mover.bench"));
        List<BenchReport.SweepPoint> sweep = new ArrayList<>();
        boolean link;
        try (Sink sink = openTarget(sinkFactory, target, settings.targetConfig())) {
            link = sink instanceof LinkSink;
            Optional<SourceFactory> readFactory = link ? Optional.empty() : Optional.of(registry.findSource(target.scheme()).orElseThrow(
                    () -> new MoverException(ErrorCode.UNSUPPORTED, "mover bench reads its files back, and no installed plugin reads "
                            + target.scheme() + ":// locations")));
            List<Step> steps = link ? LinkCells.steps(settings) : settings.concurrencies().stream().map(c -> new Step(c, null, settings.codec())).toList();
            long needed = settings.keep() ? Math.multiplyExact(settings.bytesPerStep(), steps.size()) : settings.bytesPerStep();
            checkSpace(sink, settings.target(), needed, settings.keep() ? "--files or --size, or drop --keep" : "--files or --size", notes);
            BenchFolder folder = BenchFolder.open(sink, settings.folder(), settings.target(), clock);
            int phases = readFactory.isPresent() ? 2 * steps.size() : steps.size();
            try {
                for (int index = 0; index < steps.size() && !cancellation.isCancelled(); index++) {
                    Step step = steps.get(index);
                    RelativePath stepFolder = folder.run().resolve(step.name(index));
                    GenTree tree = GenTree.of(gen, settings.generator(index), context);
                    try {
                        int first = readFactory.isPresent() ? 2 * index : index;
                        progress.phase(step.said() + ": writing " + settings.files() + " files of " + Sizes.bytes(settings.fileSize()), first, phases);
                        step(settings, step, index, stepFolder, tree, gen, sinkFactory, readFactory, context, sweep, notes,
                                line -> progress.phase(line, first + 1, phases), cancellation);
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
        if (link) {
            notes.addAll(LinkCells.notes(settings, sweep));
        }
        String described = settings.files() + " files of " + Sizes.bytes(settings.fileSize()) + " (" + settings.data() + " data) per step, "
                + (link ? LinkCells.described(settings) : "concurrency " + settings.concurrencies() + ", codec " + settings.codec())
                + ", block size " + Sizes.bytes(settings.blockSize());
        return new BenchReport("transfer", target.toString(), clock.instant().toString(), described, sweep,
                link ? LinkCells.recommend(sweep, settings) : Recommend.from(sweep, settings), List.of(), List.of(), notes);
    }

    private Sink openTarget(SinkFactory factory, EndpointUri target, Map<String, String> config) {
        PluginContext context = new PluginContext("bench", scratch, clock, System.getLogger("io.mover.bench"));
        try {
            return factory.create(target, factory.configSpec().parse(config), context);
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

    /**
     * Refuses, before anything is written, a bench that would not fit in the target's free space, where the
     * target's plugin can tell ({@link FreeSpace}); otherwise the report's notes say it was not checked.
     */
    static void checkSpace(Sink sink, String location, long needed, String option, List<String> notes) {
        EndpointUri target = EndpointUri.parse(location); // shown with its query hidden: it may hold a SAS
        if (!(sink instanceof FreeSpace space)) {
            notes.add("free space was not checked: " + target.scheme() + ":// targets do not report it");
            return;
        }
        OptionalLong usable;
        try {
            usable = space.usableSpace(RelativePath.ROOT);
        }
        catch (MoverException e) {
            notes.add("free space was not checked: asking " + target + " failed: " + e.getMessage());
            return;
        }
        if (usable.isEmpty()) {
            notes.add("free space was not checked: " + target + " did not say (an older receiver, or storage that cannot tell)");
            return;
        }
        if (needed > usable.getAsLong()) {
            throw new MoverException(ErrorCode.NO_SPACE, "the bench would write " + Sizes.bytes(needed) + " to " + target
                    + ", which has " + Sizes.bytes(usable.getAsLong()) + " free; nothing was written: lower " + option);
        }
        notes.add("free space was checked: the bench holds at most " + Sizes.bytes(needed) + " at once; " + Sizes.bytes(usable.getAsLong())
                + " was free");
    }

    /** Writes the step's files and reads them back; a link cell whose codec cannot be used here is skipped with a note. */
    private void step(TransferSettings settings, Step step, int index, RelativePath stepFolder, GenTree tree, SourceFactory gen,
            SinkFactory sinkFactory, Optional<SourceFactory> readFactory, PluginContext context, List<BenchReport.SweepPoint> sweep,
            List<String> notes, java.util.function.Consumer<String> reading, CancellationToken cancellation) {
        OpTimers timers = new OpTimers();
        String destination = Locations.child(settings.target(), stepFolder.toString());
        TransferOptions options = TransferOptions.defaults().toBuilder().concurrency(step.concurrency()).blockSize(settings.blockSize())
                .codec(step.codec()).build();
        Map<String, String> config = new LinkedHashMap<>(settings.targetConfig());
        if (step.streams() != null) {
            config.put(LinkCells.STREAMS_KEY, Integer.toString(step.streams()));
        }
        WriteStep written;
        try {
            written = WriteStep.run(registry, clock, scratch, gen, sinkFactory, timers, settings.generator(index), destination, config, options,
                    step.said(), cancellation);
        }
        catch (MoverException e) {
            if (step.streams() != null && e.code() == ErrorCode.UNKNOWN_CODEC) {
                notes.add("codec " + step.codec() + " was skipped: " + e.getMessage());
                return;
            }
            throw e;
        }
        BenchReport.Phase write = written.phase();
        BenchReport.Phase read = null;
        if (readFactory.isPresent()) {
            reading.accept(step.said() + ": " + Sizes.rate(write.bytesPerSecond()) + " written; reading back");
            SourceFactory factory = readFactory.get();
            try (Source back = factory.create(EndpointUri.parse(destination), factory.configSpec().parse(known(factory, settings.targetConfig())), context)) {
                read = ReadBack.read(back, tree.files(), step.concurrency(), settings.blockSize(), timers, cancellation);
            }
        }
        var summary = written.summary();
        sweep.add(new BenchReport.SweepPoint(step.concurrency(), write, read, written.stages(), summary.bottleneck().map(b -> b.stage().name()).orElse(null),
                summary.bottleneck().map(b -> b.explanation()).orElse(null), timers.latencies(), written.timeline().samples(), step.streams(),
                step.streams() == null ? null : step.codec(), step.streams() == null ? null : summary.codec()));
    }

    /** The target's settings the reading plugin knows (a sink's {@code fsync} means nothing to a reader). */
    static Map<String, String> known(SourceFactory factory, Map<String, String> config) {
        Map<String, String> known = new LinkedHashMap<>(config);
        known.keySet().removeIf(key -> factory.configSpec().key(key).isEmpty());
        return known;
    }
}
