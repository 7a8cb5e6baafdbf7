package io.mover.bench;

import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.mover.core.engine.JobListener;
import io.mover.core.engine.Progress;
import io.mover.core.engine.Stage;
import io.mover.core.engine.StageStats;

/**
 * Turns a job's progress (cumulative per-stage bytes, every interval) into each data-path stage's
 * throughput per interval: the "throughput per stage over time" of the HTML report.
 */
final class Timeline implements JobListener {
    private static final double MIN_INTERVAL_SECONDS = 0.05;
    private final List<BenchReport.Sample> samples = new ArrayList<>();
    private final Map<Stage, Long> previous = new EnumMap<>(Stage.class);
    private Instant previousAt;
    private Instant first;

    @Override
    public synchronized void onProgress(Progress progress) {
        if (first == null) {
            first = progress.at().minus(progress.elapsed());
            previousAt = first;
        }
        double seconds = java.time.Duration.between(previousAt, progress.at()).toNanos() / 1e9;
        // the final progress follows the last tick closely: a rate over a few milliseconds is noise, left out
        if (seconds < MIN_INTERVAL_SECONDS) {
            return;
        }
        Map<String, Double> rates = new LinkedHashMap<>();
        for (StageStats stats : progress.stages()) {
            if (Stage.DATA_PATH.contains(stats.stage()) && stats.stage() != Stage.COMMIT) {
                long before = previous.getOrDefault(stats.stage(), 0L);
                rates.put(stats.stage().name(), (stats.bytes() - before) / seconds);
                previous.put(stats.stage(), stats.bytes());
            }
        }
        samples.add(new BenchReport.Sample(java.time.Duration.between(first, progress.at()).toNanos() / 1e9, rates));
        previousAt = progress.at();
    }

    synchronized List<BenchReport.Sample> samples() {
        return List.copyOf(samples);
    }
}
