package io.mover.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;

import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * Latency histograms by operation name ({@code create}, {@code write}, {@code commit}, {@code open},
 * {@code read}, {@code file-write}, {@code file-read}), recorded from many threads at once.
 * HdrHistogram keeps three significant digits over any range, so p99.9 of a million operations costs
 * a few kilobytes and no sorting.
 */
final class OpTimers {
    private final Map<String, ConcurrentHistogram> histograms = new ConcurrentHashMap<>();

    /** Records one operation of {@code operation} that started at {@code startNanos} ({@link System#nanoTime()}). */
    void record(String operation, long startNanos) {
        histograms.computeIfAbsent(operation, name -> new ConcurrentHistogram(3)).recordValue(Math.max(1, System.nanoTime() - startNanos));
    }

    /** Every operation's percentiles, by name. */
    List<BenchReport.Latency> latencies() {
        List<BenchReport.Latency> result = new ArrayList<>();
        new ConcurrentSkipListMap<>(histograms).forEach((name, histogram) -> result.add(latency(name, histogram.copy())));
        return result;
    }

    static BenchReport.Latency latency(String name, Histogram h) {
        return new BenchReport.Latency(name, h.getTotalCount(), h.getMean() / 1e3, h.getValueAtPercentile(50) / 1e3,
                h.getValueAtPercentile(90) / 1e3, h.getValueAtPercentile(99) / 1e3, h.getValueAtPercentile(99.9) / 1e3, h.getMaxValue() / 1e3);
    }
}
