package io.mover.core.engine;

import java.util.Optional;

import io.mover.core.codec.CodecResolver.ResolvedCodec;
import io.mover.spi.Entry;
import io.mover.spi.RelativePath;
import io.mover.spi.Sink;
import io.mover.spi.Source;

import static java.util.Objects.requireNonNull;

/**
 * A job checked and connected, ready to run: everything a user could get wrong has been found by now.
 * Owns its endpoints; {@link #close()} releases them.
 *
 * @param spec what was submitted
 * @param source the opened source
 * @param sourceRoot the source root's entry: a directory, or the single file to copy
 * @param sink the destination, absent in a dry run (which writes nothing)
 * @param destinationView a read-only view of the destination (through its scheme's source plugin), for
 *        dry runs (what exists) and {@code --verify} (reading back); absent when not needed or not there
 * @param rootTarget where the source root lands: {@link RelativePath#ROOT} for a directory, the file's
 *        name for a single file
 * @param codec the validated codec
 * @param scratch the job's private directory (plugins' scratch; a sync spills its listings and plan below it)
 * @param catalog the sync catalog of this source and destination, when the sync uses one ({@code --catalog})
 * @param suggestedConcurrency what the opened endpoints suggest for files in flight, used when the user set none
 */
public record PreparedJob(JobSpec spec, Source source, Entry sourceRoot, Optional<Sink> sink, Optional<Source> destinationView,
        RelativePath rootTarget, ResolvedCodec codec, java.nio.file.Path scratch, Optional<SyncCatalog> catalog,
        Optional<SuggestedConcurrency> suggestedConcurrency) implements AutoCloseable {
    public PreparedJob {
        requireNonNull(spec, "spec is null");
        requireNonNull(source, "source is null");
        requireNonNull(sourceRoot, "sourceRoot is null");
        requireNonNull(sink, "sink is null");
        requireNonNull(destinationView, "destinationView is null");
        requireNonNull(rootTarget, "rootTarget is null");
        requireNonNull(codec, "codec is null");
        requireNonNull(scratch, "scratch is null");
        requireNonNull(catalog, "catalog is null");
        requireNonNull(suggestedConcurrency, "suggestedConcurrency is null");
    }

    /** A job without a sync catalog. */
    public PreparedJob(JobSpec spec, Source source, Entry sourceRoot, Optional<Sink> sink, Optional<Source> destinationView,
            RelativePath rootTarget, ResolvedCodec codec, java.nio.file.Path scratch) {
        this(spec, source, sourceRoot, sink, destinationView, rootTarget, codec, scratch, Optional.empty(), Optional.empty());
    }

    public TransferOptions options() {
        return spec.options();
    }

    @Override
    public void close() {
        try (Source s = source) {
            sink.ifPresent(Sink::close);
        }
        finally {
            destinationView.ifPresent(Source::close);
        }
    }
}
