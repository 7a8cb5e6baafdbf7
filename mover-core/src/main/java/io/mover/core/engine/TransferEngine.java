package io.mover.core.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

import io.mover.core.codec.CodecChoice;
import io.mover.core.codec.CodecResolver;
import io.mover.core.codec.CodecResolver.ResolvedCodec;
import io.mover.core.plugin.PluginRegistry;
import io.mover.spi.CodecFactory;
import io.mover.spi.EndpointUri;
import io.mover.spi.Entry;
import io.mover.spi.EntryType;
import io.mover.spi.ErrorCode;
import io.mover.spi.LinkSink;
import io.mover.spi.MoverException;
import io.mover.spi.PluginConfig;
import io.mover.spi.PluginContext;
import io.mover.spi.RelativePath;
import io.mover.spi.Sink;
import io.mover.spi.SinkFactory;
import io.mover.spi.Source;
import io.mover.spi.SourceFactory;

import static java.util.Objects.requireNonNull;

/**
 * Runs transfer jobs: {@link #prepare} checks a job and connects its endpoints (every user error
 * surfaces there, before anything is written), {@link #run} moves the bytes. Thread-safe; one engine
 * serves every job of a process.
 */
public final class TransferEngine {
    /** The well-known source config key asking a source to follow symbolic links ({@code --follow-symlinks}). */
    public static final String FOLLOW_SYMLINKS_KEY = "follow-symlinks";

    private final PluginRegistry registry;
    private final Clock clock;
    private final Path catalogs;

    /** An engine whose sync catalogs live under {@link SyncCatalog#defaultRoot()}. */
    public TransferEngine(PluginRegistry registry, Clock clock) {
        this(registry, clock, SyncCatalog.defaultRoot());
    }

    /** An engine whose sync catalogs ({@code --catalog}) live under {@code catalogs}. */
    public TransferEngine(PluginRegistry registry, Clock clock, Path catalogs) {
        this.registry = requireNonNull(registry, "registry is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.catalogs = requireNonNull(catalogs, "catalogs is null");
    }

    /** The catalog a sync of {@code spec} with {@code --catalog} uses, as job {@code jobKey}; empty for other jobs. */
    public Optional<SyncCatalog> catalog(JobSpec spec, String jobKey) {
        if (spec.kind() != JobKind.SYNC || !spec.options().sync().catalog()) {
            return Optional.empty();
        }
        return Optional.of(SyncCatalog.of(catalogs, spec.source(), spec.destination(), jobKey));
    }

    /**
     * Checks the job and opens its endpoints.
     *
     * @param jobKey the key the sink tags its temporaries with (stable across runs of the same job)
     * @param scratch a private directory the plugins may use
     * @throws MoverException of category USER or NOT_FOUND for anything the user must fix
     */
    public PreparedJob prepare(JobSpec spec, String jobKey, Path scratch) {
        return prepare(spec, jobKey, scratch, true);
    }

    /**
     * Whether the job's destination is one sequential stream ({@link SinkFactory#singleStream}: a plain tar
     * stream): then the whole job goes through one sink, opened once, and cannot be resumed. Checks the
     * destination's settings for such a stream without opening it.
     */
    public boolean singleStream(JobSpec spec) {
        if (spec.kind() == JobKind.BENCH) {
            return false;
        }
        EndpointUri to = EndpointUri.parse(spec.destination());
        SinkFactory factory = registry.sink(to.scheme());
        return factory.singleStream(to, factory.configSpec().parse(spec.destinationConfig()));
    }

    /**
     * As {@link #prepare(JobSpec, String, Path)}; with {@code openSink} false the destination is checked but not
     * opened (the prepared job has no sink): to check or crawl a job whose destination is a {@linkplain #singleStream
     * single stream}, which may be opened only by the run that writes it.
     */
    public PreparedJob prepare(JobSpec spec, String jobKey, Path scratch, boolean openSink) {
        TransferOptions options = spec.options();
        if (spec.kind() == JobKind.BENCH) {
            throw new MoverException(ErrorCode.UNSUPPORTED, "a bench job is run by 'mover bench' or by a server's job service, not as a transfer");
        }
        options.validate();
        new PathFilter(options.includes(), options.excludes());
        CodecChoice codecChoice = CodecChoice.parse(options.codec());
        CodecResolver resolver = new CodecResolver(registry.codecs());
        ResolvedCodec codec = resolver.resolve(codecChoice);
        EndpointUri from = EndpointUri.parse(spec.source());
        EndpointUri to = EndpointUri.parse(spec.destination());
        SourceFactory sourceFactory = registry.source(from.scheme());
        SinkFactory sinkFactory = registry.sink(to.scheme());
        checkNotInside(from, to);
        if (spec.kind() == JobKind.SYNC) {
            // a sync deletes at the destination: a source inside it would be deleted from under itself
            if (isInside(to, from)) {
                throw new MoverException(ErrorCode.INVALID_ARGUMENT, "source " + from + " is inside the destination " + to
                        + ", and a sync deletes at the destination; choose locations that do not overlap");
            }
            new SyncFilter(options, clock.instant());
            if (options.overwrite() != OverwritePolicy.TRUE) {
                throw new MoverException(ErrorCode.INVALID_ARGUMENT, "a sync replaces every changed file; drop overwrite "
                        + options.overwrite().cliName() + " (it applies to copy jobs)");
            }
        }
        PluginContext context = new PluginContext(jobKey, scratch, clock, System.getLogger("io.mover.plugin"));

        Map<String, String> sourceConfig = new HashMap<>(spec.sourceConfig());
        if (options.symlinks() == SymlinkPolicy.FOLLOW) {
            if (sourceFactory.configSpec().key(FOLLOW_SYMLINKS_KEY).isEmpty()) {
                throw new MoverException(ErrorCode.UNSUPPORTED, from.scheme() + ":// sources cannot follow symbolic links; drop --follow-symlinks");
            }
            sourceConfig.put(FOLLOW_SYMLINKS_KEY, "true");
        }
        PluginConfig sourcePluginConfig = sourceFactory.configSpec().parse(sourceConfig);
        PluginConfig sinkPluginConfig = sinkFactory.configSpec().parse(spec.destinationConfig());
        if (sinkFactory.singleStream(to, sinkPluginConfig)) {
            checkSingleStream(spec, codecChoice, to);
        }

        Source source = sourceFactory.create(from, sourcePluginConfig, context);
        AtomicBoolean ready = new AtomicBoolean();
        Optional<Sink> sink = Optional.empty();
        Optional<Source> view = Optional.empty();
        try {
            Entry root = source.stat(RelativePath.ROOT)
                    .orElseThrow(() -> new MoverException(ErrorCode.NOT_FOUND, "source " + from + " does not exist; check the path"));
            RelativePath rootTarget = switch (root.type()) {
                case DIRECTORY -> RelativePath.ROOT;
                case FILE -> RelativePath.of(fileName(from));
                default -> throw new MoverException(ErrorCode.UNSUPPORTED, "source " + from + " is a " + root.type().name().toLowerCase()
                        + "; name a file or a directory");
            };
            if (spec.kind() == JobKind.SYNC && root.type() != EntryType.DIRECTORY) {
                throw new MoverException(ErrorCode.UNSUPPORTED, "sync needs a directory as its source, and " + from + " is a "
                        + root.type().name().toLowerCase(java.util.Locale.ROOT) + "; use mover copy for a single file");
            }
            if (options.symlinks() == SymlinkPolicy.PRESERVE && root.type() == EntryType.SYMLINK) {
                throw new MoverException(ErrorCode.UNSUPPORTED, "source " + from + " is itself a symbolic link");
            }
            if (!options.dryRun() && openSink) {
                if (codecChoice.isAuto() && sinkFactory.linksToPeer(to, sinkPluginConfig)) {
                    // auto's codecs load while the link connects, not on the job's thread after it (docs/benchmarks.md, fixed costs)
                    resolver.prepareForLink();
                }
                sink = Optional.of(sinkFactory.create(to, sinkPluginConfig, context));
                checkDecodable(sink.get(), codec, to);
                if (codecChoice.isAuto() && sink.get() instanceof LinkSink link) {
                    codec = resolver.forLink(link);
                }
                if (options.symlinks() == SymlinkPolicy.PRESERVE && !(sink.get() instanceof io.mover.spi.SymbolicLinks)) {
                    throw new MoverException(ErrorCode.UNSUPPORTED, to.scheme() + ":// destinations cannot hold symbolic links; drop --preserve-symlinks");
                }
            }
            boolean hashesByReading = spec.kind() == JobKind.SYNC && options.sync().compare() == SyncOptions.ComparePolicy.CHECKSUM;
            if (options.dryRun() || options.verify() || hashesByReading) {
                view = openView(to, context, options.verify());
            }
            ready.set(true);
            return new PreparedJob(spec, source, root, sink, view, rootTarget, codec, scratch, catalog(spec, jobKey),
                    SuggestedConcurrency.of(source, pluginName(from.scheme(), true), sink, pluginName(to.scheme(), false)));
        }
        finally {
            if (!ready.get()) {
                source.close();
                sink.ifPresent(Sink::close);
                view.ifPresent(Source::close);
            }
        }
    }

    /** The name of the plugin serving {@code scheme}, as users know it from {@code mover plugins}; the scheme if none is found. */
    private String pluginName(String scheme, boolean source) {
        return registry.descriptors().stream().filter(d -> (source ? d.sources() : d.sinks()).contains(scheme))
                .map(io.mover.core.plugin.PluginDescriptor::name).findFirst().orElse(scheme);
    }

    /** One stream sees nothing of the far side and compresses itself (docs/tar-interop.md). */
    private static void checkSingleStream(JobSpec spec, CodecChoice codec, EndpointUri to) {
        String why = null;
        if (spec.kind() == JobKind.SYNC) {
            why = "a sync compares with what the destination holds, and one stream shows nothing of it; use a copy";
        }
        else if (spec.options().overwrite() != OverwritePolicy.TRUE) {
            why = "overwrite " + spec.options().overwrite().cliName() + " needs to see what the destination has, and a stream cannot; drop it (tar x replaces files)";
        }
        else if (spec.options().verify()) {
            why = "verify reads the destination back, and a stream cannot be read; drop it";
        }
        else if (!codec.isAuto() && !codec.isNone()) {
            why = "codec " + spec.options().codec() + " does not apply: the stream's format compresses it whole (format=tar+zstd, for example); use none or auto";
        }
        if (why != null) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, to + " is one sequential stream (a plain tar format): " + why);
        }
    }

    /** A peer announced the codecs it decodes in its handshake: encoding with another would fail every block there. */
    private void checkDecodable(Sink sink, ResolvedCodec codec, EndpointUri to) {
        if (!(sink instanceof LinkSink link) || codec.factory() == null || link.decodableCodecs().contains(codec.factory().wireId())) {
            return;
        }
        List<String> accepted = registry.codecs().stream().filter(f -> link.decodableCodecs().contains(f.wireId())).map(CodecFactory::name).sorted().toList();
        throw new MoverException(ErrorCode.UNKNOWN_CODEC, "the receiver at " + to + " cannot decode " + codec.factory().name()
                + "; it accepts: none" + (accepted.isEmpty() ? "" : ", " + String.join(", ", accepted)) + " (choose one with --codec)");
    }

    /** Moves the bytes of a prepared job; returns when it has ended. Closes nothing: the caller owns the job. */
    public JobSummary run(PreparedJob job, JobListener listener, CancellationToken cancellation) {
        return run(job, listener, cancellation, JobControls.of(job.options()));
    }

    /**
     * As {@link #run(PreparedJob, JobListener, CancellationToken)}, with {@code controls} to pause,
     * resume, resize and throttle the job while it runs.
     */
    public JobSummary run(PreparedJob job, JobListener listener, CancellationToken cancellation, JobControls controls) {
        return new TransferRun(job, clock, listener, cancellation, controls).run();
    }

    /**
     * One attempt at a unit of a durable job: runs {@code entries} (a manifest, in order) through the
     * per-file path, reporting each file's outcome; see {@link UnitRun}. Closes nothing.
     */
    public UnitRun unit(PreparedJob job, java.util.List<Entry> entries, FileReport.Listener reports, CancellationToken cancellation,
            JobControls controls, java.util.function.BooleanSupplier stopStarting) {
        return new UnitRun(job, clock, entries, reports, cancellation, controls, stopStarting, false);
    }

    /**
     * As {@link #unit(PreparedJob, java.util.List, FileReport.Listener, CancellationToken, JobControls, java.util.function.BooleanSupplier)},
     * for a unit that is the whole job (a {@linkplain #singleStream single stream}'s): it has no manifest but crawls the
     * source as it sends (the job's entries are never held at once), and sets each folder's times through the same sink
     * once the folder's files have ended, before the sink's {@link io.mover.spi.Sink#finish()}.
     */
    public UnitRun wholeJob(PreparedJob job, FileReport.Listener reports, CancellationToken cancellation,
            JobControls controls, java.util.function.BooleanSupplier stopStarting) {
        return new UnitRun(job, clock, java.util.List.of(), reports, cancellation, controls, stopStarting, true);
    }

    /**
     * A sync's plan for the durable job service: both sides listed and compared, the guards checked
     * (throws before anything is changed); the caller executes and closes it. Failures of single entries
     * go to {@code failures}.
     */
    public SyncPlan planSync(PreparedJob job, java.util.function.BooleanSupplier stopped, SyncPlan.Listener failures) {
        SyncPlan plan = new SyncPlan(job, clock.instant(), failures);
        boolean ready = false;
        try {
            plan.plan(stopped, new StageMeter(), new StageMeter());
            plan.checkGuards();
            ready = true;
            return plan;
        }
        finally {
            if (!ready) {
                plan.close();
            }
        }
    }

    private Optional<Source> openView(EndpointUri to, PluginContext context, boolean required) {
        Optional<SourceFactory> factory = registry.findSource(to.scheme());
        if (factory.isEmpty()) {
            if (required) {
                throw new MoverException(ErrorCode.UNSUPPORTED, "--verify reads the destination back, and no installed plugin can read " + to.scheme() + ":// locations");
            }
            return Optional.empty();
        }
        try {
            return Optional.of(factory.get().create(to, factory.get().configSpec().parse(Map.of()), context));
        }
        catch (MoverException e) {
            if (e.code() == ErrorCode.NOT_FOUND && !required) {
                return Optional.empty();
            }
            throw e;
        }
    }

    private static String fileName(EndpointUri uri) {
        String path = uri.path();
        String name = path.substring(path.lastIndexOf('/') + 1);
        if (name.isEmpty()) {
            throw new MoverException(ErrorCode.INVALID_PATH, "source " + uri + " names a file but has no file name");
        }
        return name;
    }

    /** A destination inside the source would copy the copy into itself without end. */
    private static void checkNotInside(EndpointUri from, EndpointUri to) {
        if (isInside(from, to)) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "destination " + to + " is inside the source " + from
                    + "; choose a destination outside the source");
        }
    }

    /** Whether {@code inner} is {@code outer} or below it. */
    private static boolean isInside(EndpointUri outer, EndpointUri inner) {
        boolean inside = outer.contains(inner);
        if (!inside && outer.scheme().equals("file") && inner.scheme().equals("file")) {
            inside = realPath(Path.of(inner.path())).startsWith(realPath(Path.of(outer.path())));
        }
        return inside;
    }

    /** The real path of the longest existing prefix, so links in either location cannot hide nesting. */
    private static Path realPath(Path path) {
        Path existing = path.toAbsolutePath().normalize();
        Path rest = existing.getFileSystem().getPath("");
        while (existing != null && !Files.exists(existing)) {
            rest = existing.getFileName().resolve(rest);
            existing = existing.getParent();
        }
        if (existing == null) {
            return path.toAbsolutePath().normalize();
        }
        try {
            return existing.toRealPath().resolve(rest).normalize();
        }
        catch (IOException e) {
            return path.toAbsolutePath().normalize();
        }
    }
}
