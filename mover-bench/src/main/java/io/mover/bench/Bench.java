package io.mover.bench;

import java.nio.file.Path;
import java.time.Clock;

import io.mover.core.engine.CancellationToken;
import io.mover.core.plugin.PluginRegistry;

/** Runs a bench of either mode: what the server's job service and {@code mover bench} call. */
public final class Bench {
    private Bench() {}

    /**
     * Runs {@code settings} against its target through {@code registry}'s plugins, with {@code scratch} for
     * the plugins' temporary files. Cancelling stops it at its next operation; what it wrote is removed.
     */
    public static BenchReport run(PluginRegistry registry, Clock clock, Path scratch, BenchSettings settings, BenchProgress progress,
            CancellationToken cancellation) {
        return switch (settings) {
            case TransferSettings transfer -> new TransferBench(registry, clock, scratch).run(transfer, progress, cancellation);
            case IoSettings io -> new IoBench(registry, clock, scratch).run(io, progress, cancellation);
        };
    }
}
