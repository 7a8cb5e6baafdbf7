package io.mover.spi;

import java.nio.file.Path;
import java.time.Clock;

/**
 * What the engine gives a factory when it creates a source, sink or codec. Immutable.
 *
 * @param jobKey a stable key of the job this endpoint serves; a sink tags its temporaries with it, so
 *        that a later run of the same job can find and remove what a crashed run left behind
 *        (see {@link Sink#removeStaleTemporaries})
 * @param scratchDirectory a private local directory the plugin may use for spill files; removed after the job
 * @param clock the clock to use for anything time-based, so tests can control it
 * @param logger where the plugin logs; never log a {@link Secret}'s revealed value
 */
public record PluginContext(String jobKey, Path scratchDirectory, Clock clock, System.Logger logger) {
    public PluginContext {
        java.util.Objects.requireNonNull(jobKey, "jobKey is null");
        java.util.Objects.requireNonNull(scratchDirectory, "scratchDirectory is null");
        java.util.Objects.requireNonNull(clock, "clock is null");
        java.util.Objects.requireNonNull(logger, "logger is null");
        if (!jobKey.matches("[A-Za-z0-9_-]{1,64}")) {
            throw new IllegalArgumentException("jobKey must be 1 to 64 letters, digits, '-' or '_': " + jobKey);
        }
    }
}
