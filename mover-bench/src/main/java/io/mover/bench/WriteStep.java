package io.mover.bench;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;

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
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.MoverPlugin;
import io.mover.spi.SinkFactory;
import io.mover.spi.SourceFactory;

/**
 * The write of one sweep step: the engine copies a generated tree into the step's folder on the target,
 * exactly as {@code mover copy} would, through a timed sink, with the step's concurrency, codec and target
 * settings (a link's streams).
 *
 * @param summary the engine's summary of the copy (it succeeded)
 * @param timeline throughput per stage over the copy
 */
record WriteStep(JobSummary summary, Timeline timeline) {
    /** Runs the copy; a copy that did not succeed is an error saying at which step. */
    static WriteStep run(PluginRegistry registry, Clock clock, Path scratch, SourceFactory gen, SinkFactory sinkFactory, OpTimers timers,
            String generator, String destination, Map<String, String> targetConfig, TransferOptions options, String step,
            CancellationToken cancellation) {
        PluginRegistry timed = PluginRegistry.of(List.of(new BenchPlugin(gen, new TimedSink.Factory(sinkFactory, timers), registry.codecs())), "bench");
        TransferEngine engine = new TransferEngine(timed, clock);
        TransferOptions stepOptions = options.toBuilder().retries(0, Duration.ofMillis(100)).progressInterval(Duration.ofMillis(100)).build();
        JobSpec spec = new JobSpec(JobKind.COPY, generator, destination, Map.of(), targetConfig, stepOptions);
        Timeline timeline = new Timeline();
        JobSummary summary;
        try (PreparedJob job = engine.prepare(spec, "bench-" + step.replaceAll("[^A-Za-z0-9]", "-"), scratch)) {
            summary = engine.run(job, timeline, cancellation);
        }
        if (summary.state() != JobState.SUCCEEDED) {
            String why = summary.error().orElseGet(() -> summary.failures().isEmpty() ? summary.state().name()
                    : summary.failures().getFirst().path() + ": " + summary.failures().getFirst().message());
            throw new MoverException(summary.errorCode().orElse(ErrorCode.IO_ERROR), "writing to the target failed at " + step + ": " + why);
        }
        return new WriteStep(summary, timeline);
    }

    BenchReport.Phase phase() {
        return BenchReport.Phase.of(summary.filesTransferred(), summary.bytesTransferred(), summary.elapsed().toNanos());
    }

    List<BenchReport.StageFigure> stages() {
        return summary.stages().stream().map(s -> new BenchReport.StageFigure(s.stage().name(), s.bytes(), s.operations(), s.busy().toNanos() / 1e9,
                s.waiting().toNanos() / 1e9, s.shareOfBusy(), s.bytesPerBusySecond())).toList();
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
}
