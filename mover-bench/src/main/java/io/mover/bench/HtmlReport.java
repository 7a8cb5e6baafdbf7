package io.mover.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The report as one self-contained HTML page: inline CSS and inline SVG charts (the concurrency sweep,
 * throughput per stage over time, the four-corner matrix, the block-size sweep) and the tables of the
 * text report. No script, no font, no link: it opens the same offline, attached to a ticket.
 */
public final class HtmlReport {
    private static final double MIB = 1 << 20;
    private static final String STYLE = "body{font-family:sans-serif;margin:24px;color:#222;max-width:1000px}"
            + "table{border-collapse:collapse;margin:8px 0 20px}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}"
            + "th{background:#f2f2f2}td:first-child,th:first-child{text-align:left}.chart{display:block;margin:12px 0}"
            + ".rec{background:#f4f4f4;border-left:4px solid #555;padding:8px 12px}";

    private HtmlReport() {}

    public static String of(BenchReport report) {
        StringBuilder html = new StringBuilder("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>mover bench: ")
                .append(Html.escape(report.target())).append("</title><style>").append(STYLE).append("</style></head><body>");
        html.append("<h1>mover bench (").append(Html.escape(report.mode())).append(") on ").append(Html.escape(report.target())).append("</h1>");
        html.append("<p>").append(Html.escape(report.settings())).append("<br>Started ").append(Html.escape(report.started())).append("</p>");
        if (!report.sweep().isEmpty()) {
            transfer(report, html);
        }
        if (!report.io().isEmpty()) {
            io(report, html);
        }
        if (!report.notes().isEmpty()) {
            html.append("<h2>Notes</h2><ul>");
            report.notes().forEach(note -> html.append("<li>").append(Html.escape(note)).append("</li>"));
            html.append("</ul>");
        }
        return html.append("</body></html>\n").toString();
    }

    private static void transfer(BenchReport report, StringBuilder html) {
        BenchReport.Recommendation r = report.recommendation();
        if (r != null) {
            html.append("<p class=\"rec\"><b>Recommended: ").append(Html.escape(r.options())).append("</b><br>")
                    .append(Html.escape(r.reason())).append("<br>Bottleneck: ").append(Html.escape(r.bottleneck())).append("</p>");
        }
        boolean link = report.sweep().getFirst().streams() != null;
        if (link) {
            html.append(linkChart(report.sweep()));
        }
        else {
            html.append(Svg.bars("Concurrency sweep", "files in flight", "MiB/s", report.sweep().stream().map(BenchReport.SweepPoint::label).toList(),
                    List.of(new Svg.Series("write", report.sweep().stream().map(p -> p.write().bytesPerSecond() / MIB).toList()),
                            new Svg.Series("read back", report.sweep().stream().map(p -> p.read().bytesPerSecond() / MIB).toList()))));
        }
        html.append("<table><tr><th>").append(link ? "streams, codec" : "concurrency")
                .append("</th><th>write MiB/s</th><th>files/s</th><th>read MiB/s</th><th>files/s</th><th>bottleneck</th></tr>");
        for (BenchReport.SweepPoint p : report.sweep()) {
            html.append(row(p.label(), mib(p.write().bytesPerSecond()), whole(p.write().filesPerSecond()),
                    p.read() == null ? "-" : mib(p.read().bytesPerSecond()), p.read() == null ? "-" : whole(p.read().filesPerSecond()),
                    p.bottleneckStage() == null ? "-" : p.bottleneckStage()));
        }
        html.append("</table>");
        BenchReport.SweepPoint best = r == null ? report.sweep().getLast() : r.point(report.sweep());
        String at = TextReport.said(best);
        if (!best.timeline().isEmpty()) {
            Map<String, List<Double>> byStage = new LinkedHashMap<>();
            for (BenchReport.Sample sample : best.timeline()) {
                sample.stageBytesPerSecond().forEach((stage, rate) -> byStage.computeIfAbsent(stage, s -> new ArrayList<>()).add(rate / MIB));
            }
            List<Svg.Series> stages = byStage.entrySet().stream().map(e -> new Svg.Series(e.getKey(), e.getValue())).toList();
            html.append(Svg.lines("Throughput per stage over time, " + at, "seconds", "MiB/s",
                    best.timeline().stream().map(BenchReport.Sample::seconds).toList(), stages));
        }
        html.append("<h2>Stages at ").append(Html.escape(at)).append("</h2><table><tr><th>stage</th><th>bytes</th><th>ops</th>"
                + "<th>MiB/s busy</th><th>busy s</th><th>waiting s</th><th>share</th></tr>");
        for (BenchReport.StageFigure s : best.stages()) {
            html.append(row(s.stage(), Sizes.bytes(s.bytes()), Long.toString(s.operations()), mib(s.bytesPerBusySecond()),
                    fixed(s.busySeconds()), fixed(s.waitingSeconds()), whole(s.shareOfBusy() * 100) + "%"));
        }
        html.append("</table><h2>Latency per operation at ").append(Html.escape(at)).append(" (µs)</h2>");
        latencies(best.latencies(), html);
    }

    /** A link's cells as bars grouped by streams, one colour per codec (a cell skipped shows as 0). */
    private static String linkChart(List<BenchReport.SweepPoint> sweep) {
        List<Integer> streams = sweep.stream().map(BenchReport.SweepPoint::streams).distinct().toList();
        List<String> codecs = sweep.stream().map(BenchReport.SweepPoint::codec).distinct().toList();
        List<Svg.Series> series = new ArrayList<>();
        for (String codec : codecs) {
            series.add(new Svg.Series(codec, streams.stream().map(n -> sweep.stream().filter(p -> p.streams().equals(n) && p.codec().equals(codec))
                    .mapToDouble(p -> p.write().bytesPerSecond() / MIB).findFirst().orElse(0)).toList()));
        }
        return Svg.bars("Streams and codecs (write)", "TCP streams", "MiB/s", streams.stream().map(String::valueOf).toList(), series);
    }

    private static void io(BenchReport report, StringBuilder html) {
        List<Integer> depths = report.io().stream().map(BenchReport.IoPoint::queueDepth).distinct().sorted().toList();
        List<String> patterns = report.io().stream().map(BenchReport.IoPoint::pattern).distinct().toList();
        // queue depths double: a log scale spreads them evenly
        List<Double> xs = depths.stream().map(d -> Math.log(d) / Math.log(2)).toList();
        List<String> labels = depths.stream().map(String::valueOf).toList();
        html.append(Svg.lines("Four corners: MiB/s by queue depth", "queue depth", "MiB/s", xs, labels,
                patterns.stream().map(p -> new Svg.Series(p, depths.stream().map(d -> point(report, p, d).mibPerSecond()).toList())).toList()));
        html.append(Svg.lines("Four corners: IOPS by queue depth", "queue depth", "IOPS", xs, labels,
                patterns.stream().map(p -> new Svg.Series(p, depths.stream().map(d -> point(report, p, d).iops()).toList())).toList()));
        html.append("<h2>Matrix: MiB/s, IOPS, p99 latency (µs)</h2><table><tr><th>pattern</th>");
        depths.forEach(d -> html.append("<th>qd ").append(d).append("</th>"));
        html.append("</tr>");
        for (String pattern : patterns) {
            html.append("<tr><td>").append(pattern).append(" (").append(Sizes.option(point(report, pattern, depths.getFirst()).blockSize())).append(")</td>");
            for (int depth : depths) {
                BenchReport.IoPoint p = point(report, pattern, depth);
                html.append(String.format(Locale.ROOT, "<td>%.1f<br>%.0f<br>%.0f</td>", p.mibPerSecond(), p.iops(), p.latency().p99Micros()));
            }
            html.append("</tr>");
        }
        html.append("</table>");
        if (!report.blockSizes().isEmpty()) {
            html.append(Svg.bars("Sequential writes by block size (queue depth 1)", "block size", "MiB/s",
                    report.blockSizes().stream().map(p -> Sizes.option(p.blockSize())).toList(),
                    List.of(new Svg.Series("seq-write", report.blockSizes().stream().map(BenchReport.IoPoint::mibPerSecond).toList()))));
        }
        html.append("<h2>Latency (µs)</h2>");
        latencies(report.io().stream().map(p -> new BenchReport.Latency(p.pattern() + " qd " + p.queueDepth(), p.latency().count(),
                p.latency().meanMicros(), p.latency().p50Micros(), p.latency().p90Micros(), p.latency().p99Micros(), p.latency().p999Micros(),
                p.latency().maxMicros())).toList(), html);
    }

    private static BenchReport.IoPoint point(BenchReport report, String pattern, int depth) {
        return report.io().stream().filter(p -> p.pattern().equals(pattern) && p.queueDepth() == depth).findFirst().orElseThrow();
    }

    private static void latencies(List<BenchReport.Latency> latencies, StringBuilder html) {
        html.append("<table><tr><th>operation</th><th>count</th><th>mean</th><th>p50</th><th>p90</th><th>p99</th><th>p99.9</th><th>max</th></tr>");
        for (BenchReport.Latency l : latencies) {
            html.append(row(l.operation(), Long.toString(l.count()), fixed(l.meanMicros()), fixed(l.p50Micros()), fixed(l.p90Micros()),
                    fixed(l.p99Micros()), fixed(l.p999Micros()), fixed(l.maxMicros())));
        }
        html.append("</table>");
    }

    private static String row(String... cells) {
        StringBuilder row = new StringBuilder("<tr>");
        for (String cell : cells) {
            row.append("<td>").append(Html.escape(cell)).append("</td>");
        }
        return row.append("</tr>").toString();
    }

    private static String mib(double bytesPerSecond) {
        return fixed(bytesPerSecond / MIB);
    }

    private static String fixed(double value) {
        return String.format(Locale.ROOT, "%.1f", value);
    }

    private static String whole(double value) {
        return String.format(Locale.ROOT, "%.0f", value);
    }
}
