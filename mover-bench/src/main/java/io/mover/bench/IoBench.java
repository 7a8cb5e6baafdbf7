package io.mover.bench;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

import io.mover.core.engine.CancellationToken;
import io.mover.core.plugin.PluginRegistry;
import io.mover.spi.EndpointUri;
import io.mover.spi.Entry;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.PluginContext;
import io.mover.spi.RelativePath;
import io.mover.spi.Sink;
import io.mover.spi.SinkFactory;
import io.mover.spi.SinkWriter;
import io.mover.spi.Source;
import io.mover.spi.SourceFactory;
import io.mover.spi.SourceReader;

import static java.util.Objects.requireNonNull;

/**
 * IO mode: fio's four corners through the target's plugins. Reads go through the target's
 * {@link SourceReader} on a file laid out first; writes through one {@link SinkWriter} on a second
 * file, laid out before it is measured (as fio lays out its file) and aborted at the end, so it never
 * becomes visible. Both are positional calls, the only I/O the plugin SPI has: every target mover can
 * reach can be measured, and local disks measure what {@code pread}/{@code pwrite} do.
 */
public final class IoBench {
    private static final List<String> ORDER = List.of("seq-read", "seq-write", "rand-read", "rand-write");
    private final PluginRegistry registry;
    private final Clock clock;
    private final Path scratch;

    public IoBench(PluginRegistry registry, Clock clock, Path scratch) {
        this.registry = requireNonNull(registry, "registry is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.scratch = requireNonNull(scratch, "scratch is null");
    }

    public BenchReport run(IoSettings settings, BenchProgress progress, CancellationToken cancellation) {
        EndpointUri target = EndpointUri.parse(settings.target());
        SinkFactory sinkFactory = registry.sink(target.scheme());
        SourceFactory readFactory = registry.findSource(target.scheme()).orElseThrow(() -> new MoverException(ErrorCode.UNSUPPORTED,
                "mover bench --mode io reads from the target, and no installed plugin reads " + target.scheme() + ":// locations"));
        List<String> notes = new ArrayList<>();
        PluginContext context = new PluginContext("bench", scratch, clock, System.getLogger("io.mover.bench"));
        long nanos = settings.runtime().toNanos();
        List<BenchReport.IoPoint> corners = new ArrayList<>();
        List<BenchReport.IoPoint> blockSizes = new ArrayList<>();
        Steps log = new Steps(progress, 2 + 2 * settings.queueDepths().size() + settings.writeBlockSizes().size());
        try (Sink sink = openTarget(sinkFactory, target, settings, context)) {
            TransferBench.checkSpace(sink, settings.target(), Math.multiplyExact(settings.fileSize(), 2), "--io-size", notes);
            BenchFolder folder = BenchFolder.open(sink, settings.folder(), settings.target(), clock);
            RelativePath readFile = folder.run().resolve("io-read.bin");
            try {
                log.next("laying out " + Sizes.bytes(settings.fileSize()) + " to read");
                SinkWriter layout = sink.create(readFile, settings.fileSize(), Entry.file(readFile, settings.fileSize(), clock.instant()));
                fill(layout, settings.fileSize());
                layout.commit();
                String runLocation = Locations.child(settings.target(), folder.run().toString());
                try (Source source = readFactory.create(EndpointUri.parse(runLocation),
                        readFactory.configSpec().parse(TransferBench.known(readFactory, settings.targetConfig())), context);
                        SourceReader reader = source.open(RelativePath.of(readFile.name()))) {
                    IoWorkers.Operation read = (position, buffer) -> reader.read(position, buffer);
                    warmUp(settings, read, cancellation);
                    for (int depth : settings.queueDepths()) {
                        log.next("reading at queue depth " + depth);
                        corners.add(IoWorkers.run("seq-read", false, IoSettings.SEQUENTIAL_BLOCK, depth, settings.fileSize(), nanos, read, cancellation));
                        corners.add(IoWorkers.run("rand-read", true, IoSettings.RANDOM_BLOCK, depth, settings.fileSize(), nanos, read, cancellation));
                    }
                }
                RelativePath writeFile = folder.run().resolve("io-write.bin");
                SinkWriter writer = sink.create(writeFile, settings.fileSize(), Entry.file(writeFile, settings.fileSize(), clock.instant()));
                try {
                    log.next("laying out " + Sizes.bytes(settings.fileSize()) + " to overwrite");
                    fill(writer, settings.fileSize());
                    IoWorkers.Operation write = writer::write;
                    warmUp(settings, write, cancellation);
                    for (int depth : settings.queueDepths()) {
                        log.next("writing at queue depth " + depth);
                        corners.add(IoWorkers.run("seq-write", false, IoSettings.SEQUENTIAL_BLOCK, depth, settings.fileSize(), nanos, write, cancellation));
                        corners.add(IoWorkers.run("rand-write", true, IoSettings.RANDOM_BLOCK, depth, settings.fileSize(), nanos, write, cancellation));
                    }
                    for (long block : settings.writeBlockSizes()) {
                        log.next("writing " + Sizes.option(block) + " blocks");
                        blockSizes.add(IoWorkers.run("seq-write", false, Math.toIntExact(block), 1, settings.fileSize(), nanos, write, cancellation));
                    }
                }
                finally {
                    writer.abort();
                }
            }
            finally {
                if (settings.keep()) {
                    notes.add("the read test file is kept in " // query hidden: it may hold a SAS
                            + EndpointUri.parse(Locations.child(settings.target(), readFile.toString())).toString());
                }
                else {
                    sink.delete(readFile, false);
                    notes.addAll(folder.close());
                }
            }
        }
        corners.sort(Comparator.comparingInt((BenchReport.IoPoint p) -> ORDER.indexOf(p.pattern())).thenComparingInt(BenchReport.IoPoint::queueDepth));
        notes.add("buffered I/O through the target's plugin, as fio without --direct: reads of a file just written may come from the page cache");
        String described = "test file " + Sizes.bytes(settings.fileSize()) + ", 64KiB sequential and 8KiB random at queue depths "
                + settings.queueDepths() + ", " + settings.runtime().toMillis() + " ms each; write block sizes "
                + settings.writeBlockSizes().stream().map(Sizes::option).toList();
        return new BenchReport("io", target.toString(), clock.instant().toString(), described, List.of(), null, corners, blockSizes, notes);
    }

    /** Numbers the phases as they start. */
    private static final class Steps {
        private final BenchProgress progress;
        private final int steps;
        private int step;

        Steps(BenchProgress progress, int steps) {
            this.progress = progress;
            this.steps = steps;
        }

        void next(String description) {
            progress.phase(description, Math.min(step++, steps), steps);
        }
    }

    /**
     * Runs both block sizes briefly, untimed, so that the first measured point is compiled code like the
     * last (fio, in C, needs no warm-up; a JVM does, and its first point would be read as the target's).
     */
    private static void warmUp(IoSettings settings, IoWorkers.Operation operation, CancellationToken cancellation) {
        long nanos = Math.min(settings.runtime().toNanos(), 300_000_000L);
        IoWorkers.run("warm-up", false, IoSettings.SEQUENTIAL_BLOCK, 1, settings.fileSize(), nanos, operation, cancellation);
        IoWorkers.run("warm-up", true, IoSettings.RANDOM_BLOCK, 1, settings.fileSize(), nanos, operation, cancellation);
    }

    /** Writes {@code size} bytes of random data from the start, 1 MiB at a time. */
    private static void fill(SinkWriter writer, long size) {
        ByteBuffer block = ByteBuffer.allocateDirect(1 << 20);
        SplittableRandom random = new SplittableRandom(size);
        while (block.remaining() >= Long.BYTES) {
            block.putLong(random.nextLong());
        }
        for (long position = 0; position < size; position += block.capacity()) {
            block.clear().limit((int) Math.min(block.capacity(), size - position));
            writer.write(position, block);
        }
    }

    private Sink openTarget(SinkFactory factory, EndpointUri target, IoSettings settings, PluginContext context) {
        try {
            return factory.create(target, factory.configSpec().parse(settings.targetConfig()), context);
        }
        catch (MoverException e) {
            throw TransferBench.notWritable(target, e);
        }
    }
}
