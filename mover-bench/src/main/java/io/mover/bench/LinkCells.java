package io.mover.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The sweep of a target across a link (tcp://): a cell per stream count and codec, at one concurrency (the
 * largest of {@code --concurrency}, so the link, not the files in flight, sets the pace), each written only.
 * The recommendation is the cell with the fewest streams, then the earliest codec of {@code --codecs} (cheapest
 * first by default: none, lz4, zstd:1, auto), within 5% of the best throughput.
 */
final class LinkCells {
    /** The tcp sink's setting for its parallel connections. */
    static final String STREAMS_KEY = "streams";

    private LinkCells() {}

    static int concurrency(TransferSettings settings) {
        return settings.concurrencies().stream().mapToInt(Integer::intValue).max().orElseThrow();
    }

    static List<TransferBench.Step> steps(TransferSettings settings) {
        List<TransferBench.Step> steps = new ArrayList<>();
        for (int streams : settings.streams()) {
            for (String codec : settings.codecs()) {
                steps.add(new TransferBench.Step(concurrency(settings), streams, codec));
            }
        }
        return steps;
    }

    static String described(TransferSettings settings) {
        return "across a link: streams " + settings.streams() + " x codecs " + settings.codecs() + " at concurrency " + concurrency(settings);
    }

    static List<String> notes(TransferSettings settings, List<BenchReport.SweepPoint> sweep) {
        List<String> notes = new ArrayList<>();
        notes.add("the target is across a link: files are written and committed at the far end, not read back (the peer protocol has no reads)");
        notes.add("codecs were measured on " + settings.data() + " data, and data that compresses differently ranks them differently"
                + (List.of("random", "zeros").contains(settings.data()) ? " (--data text or mixed is closer to logs and documents)" : ""));
        // what auto did, per cell: its own summary (which codecs took the blocks, how often it switched)
        sweep.stream().filter(p -> "auto".equals(p.codec()) && p.codecUsed() != null)
                .forEach(p -> notes.add(p.label() + ": " + p.codecUsed()));
        return notes;
    }

    static BenchReport.Recommendation recommend(List<BenchReport.SweepPoint> sweep, TransferSettings settings) {
        if (sweep.isEmpty()) {
            return null;
        }
        double best = sweep.stream().mapToDouble(p -> p.write().bytesPerSecond()).max().orElse(0);
        BenchReport.SweepPoint chosen = sweep.stream().filter(p -> p.write().bytesPerSecond() >= best * Recommend.NEAR_BEST)
                .min(Comparator.comparingInt(BenchReport.SweepPoint::streams).thenComparingInt(p -> settings.codecs().indexOf(p.codec())))
                .orElseThrow();
        BenchReport.SweepPoint first = sweep.getFirst();
        String options = "--streams " + chosen.streams() + " --codec " + chosen.codec() + " --concurrency " + chosen.concurrency()
                + (settings.blockSize() == (1 << 20) ? "" : " --block-size " + Sizes.option(settings.blockSize()));
        String reason = String.format(Locale.ROOT, "writes reached %s (%.0f files/s) with %s, against %s with %s", Sizes.rate(chosen.write().bytesPerSecond()),
                chosen.write().filesPerSecond(), said(chosen), Sizes.rate(first.write().bytesPerSecond()), said(first));
        int most = sweep.stream().mapToInt(BenchReport.SweepPoint::streams).max().orElseThrow();
        if (chosen.streams() == most && sweep.stream().map(BenchReport.SweepPoint::streams).distinct().count() > 1) {
            reason += "; throughput still grew at the most streams tried, so try more too (--streams)";
        }
        return new BenchReport.Recommendation(chosen.concurrency(), chosen.concurrency(), options,
                chosen.bottleneck() == null ? "no bytes moved" : chosen.bottleneck(), reason, chosen.streams(), chosen.codec());
    }

    private static String said(BenchReport.SweepPoint p) {
        return p.label();
    }
}
