package io.mover.bench;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * Picks the setting to use from a sweep: the smallest concurrency within 5% of the best write
 * throughput (more in flight than that costs memory and the target's goodwill for nothing), and says
 * why in the words of the engine's bottleneck.
 */
final class Recommend {
    static final double NEAR_BEST = 0.95;

    private Recommend() {}

    static BenchReport.Recommendation from(List<BenchReport.SweepPoint> sweep, TransferSettings settings) {
        if (sweep.isEmpty()) {
            return null;
        }
        BenchReport.SweepPoint write = knee(sweep, p -> p.write().bytesPerSecond());
        BenchReport.SweepPoint read = knee(sweep, p -> p.read().bytesPerSecond());
        BenchReport.SweepPoint first = sweep.getFirst();
        String options = "--concurrency " + write.concurrency()
                + (settings.blockSize() == (1 << 20) ? "" : " --block-size " + Sizes.option(settings.blockSize()))
                + (List.of("none", "auto").contains(settings.codec()) ? "" : " --codec " + settings.codec());
        String reason = String.format(Locale.ROOT, "writes reached %s (%.0f files/s) with %d in flight, against %s with %d",
                Sizes.rate(write.write().bytesPerSecond()), write.write().filesPerSecond(), write.concurrency(),
                Sizes.rate(first.write().bytesPerSecond()), first.concurrency());
        if (write.concurrency() == sweep.stream().mapToInt(BenchReport.SweepPoint::concurrency).max().orElseThrow() && sweep.size() > 1) {
            reason += "; throughput still grew at the largest concurrency tried, so try higher values too";
        }
        return new BenchReport.Recommendation(write.concurrency(), read.concurrency(), options,
                write.bottleneck() == null ? "no bytes moved" : write.bottleneck(), reason, null, null);
    }

    /** The point with the smallest concurrency whose figure is within 5% of the best. */
    private static BenchReport.SweepPoint knee(List<BenchReport.SweepPoint> sweep, ToDoubleFunction<BenchReport.SweepPoint> figure) {
        double best = sweep.stream().mapToDouble(figure).max().orElse(0);
        return sweep.stream().filter(p -> figure.applyAsDouble(p) >= best * NEAR_BEST)
                .min(Comparator.comparingInt(BenchReport.SweepPoint::concurrency)).orElseThrow();
    }
}
