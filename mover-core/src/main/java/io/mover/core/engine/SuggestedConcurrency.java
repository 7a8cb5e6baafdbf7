package io.mover.core.engine;

import java.util.Optional;

import io.mover.spi.FilesInFlight;
import io.mover.spi.Sink;
import io.mover.spi.Source;

import static java.util.Objects.requireNonNull;

/**
 * What a job's endpoints suggest for its files in flight ({@link FilesInFlight}): the larger of the source's and
 * the destination's, since the slower-to-answer end is the one that needs more requests waiting to stay busy. A run
 * applies it to its {@link JobControls} when the user set no concurrency ({@link JobControls#suggest}).
 *
 * @param files the suggested files in flight (not yet bounded)
 * @param by the plugin that suggested it
 */
public record SuggestedConcurrency(int files, String by) {
    public SuggestedConcurrency {
        requireNonNull(by, "by is null");
    }

    /** The larger suggestion of the two ends (the destination's on a tie); empty when neither suggests. */
    static Optional<SuggestedConcurrency> of(Source source, String sourcePlugin, Optional<Sink> sink, String sinkPlugin) {
        Optional<SuggestedConcurrency> fromSource = source instanceof FilesInFlight s
                ? Optional.of(new SuggestedConcurrency(s.filesInFlight(), sourcePlugin)) : Optional.empty();
        Optional<SuggestedConcurrency> fromSink = sink.filter(FilesInFlight.class::isInstance)
                .map(s -> new SuggestedConcurrency(((FilesInFlight) s).filesInFlight(), sinkPlugin));
        if (fromSource.isEmpty()) {
            return fromSink;
        }
        if (fromSink.isEmpty()) {
            return fromSource;
        }
        return fromSink.get().files() >= fromSource.get().files() ? fromSink : fromSource;
    }
}
