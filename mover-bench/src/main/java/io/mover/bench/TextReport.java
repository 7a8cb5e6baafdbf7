package io.mover.bench;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/** The report for people: tables in fixed columns, the recommendation last, where the eye ends. */
public final class TextReport {
    private TextReport() {}

    public static void write(BenchReport report, PrintWriter out) {
        out.println("mover bench (" + report.mode() + ") on " + report.target());
        out.println("Settings:    " + report.settings());
        if (!report.sweep().isEmpty()) {
            transfer(report, out);
        }
        if (!report.io().isEmpty()) {
            out.println();
            out.println("Four corners (as fio: MiB/s, IOPS, completion latency in microseconds):");
            io(report.io(), out);
        }
        if (!report.blockSizes().isEmpty()) {
            out.println();
            out.println("Sequential writes by block size:");
            io(report.blockSizes(), out);
        }
        for (String note : report.notes()) {
            out.println("Note:        " + note);
        }
        out.flush();
    }

    private static void transfer(BenchReport report, PrintWriter out) {
        out.println();
        boolean link = report.sweep().getFirst().streams() != null;
        String first = link ? "streams, codec" : "concurrency";
        out.println(String.format(Locale.ROOT, "%-28s %14s %10s %14s %10s  %s", first, "write", "files/s", "read", "files/s", "bottleneck (write)"));
        for (BenchReport.SweepPoint p : report.sweep()) {
            out.println(String.format(Locale.ROOT, "%-28s %14s %10.0f %14s %10s  %s", p.label(), Sizes.rate(p.write().bytesPerSecond()),
                    p.write().filesPerSecond(), p.read() == null ? "-" : Sizes.rate(p.read().bytesPerSecond()),
                    p.read() == null ? "-" : String.format(Locale.ROOT, "%.0f", p.read().filesPerSecond()),
                    p.bottleneckStage() == null ? "-" : p.bottleneckStage()));
        }
        BenchReport.Recommendation r = report.recommendation();
        if (r == null) {
            return;
        }
        BenchReport.SweepPoint best = r.point(report.sweep());
        out.println();
        out.println("At " + said(best) + ", per stage of the write:");
        out.println(String.format(Locale.ROOT, "  %-8s %12s %9s %14s %9s %9s %6s", "stage", "bytes", "ops", "throughput", "busy", "waiting", "share"));
        for (BenchReport.StageFigure s : best.stages()) {
            if (s.operations() == 0) {
                continue;
            }
            out.println(String.format(Locale.ROOT, "  %-8s %12s %9d %14s %8.1fs %8.1fs %5.0f%%", s.stage(), Sizes.bytes(s.bytes()), s.operations(),
                    s.bytes() == 0 ? "-" : Sizes.rate(s.bytesPerBusySecond()), s.busySeconds(), s.waitingSeconds(), s.shareOfBusy() * 100));
        }
        out.println();
        out.println("Latency per operation at " + said(best) + " (microseconds):");
        latencies(best.latencies(), out);
        out.println();
        out.println("Bottleneck:  " + r.bottleneck());
        out.println("Best:        " + r.reason());
        out.println("Recommended: " + r.options() + (r.readConcurrency() != r.concurrency() ? " (reads peaked at concurrency " + r.readConcurrency() + ")" : ""));
    }

    /** "concurrency 16", or "4 streams, lz4 (concurrency 64)". */
    static String said(BenchReport.SweepPoint p) {
        return p.streams() == null ? "concurrency " + p.concurrency() : p.label() + " (concurrency " + p.concurrency() + ")";
    }

    static void latencies(List<BenchReport.Latency> latencies, PrintWriter out) {
        out.println(String.format(Locale.ROOT, "  %-11s %9s %10s %10s %10s %10s %10s", "operation", "count", "p50", "p90", "p99", "p99.9", "max"));
        for (BenchReport.Latency l : latencies) {
            out.println(String.format(Locale.ROOT, "  %-11s %9d %10.1f %10.1f %10.1f %10.1f %10.1f", l.operation(), l.count(), l.p50Micros(),
                    l.p90Micros(), l.p99Micros(), l.p999Micros(), l.maxMicros()));
        }
    }

    private static void io(List<BenchReport.IoPoint> points, PrintWriter out) {
        out.println(String.format(Locale.ROOT, "  %-11s %7s %4s %11s %10s %8s %9s %9s %9s %9s", "pattern", "block", "qd", "MiB/s", "IOPS", "CPU s",
                "p50", "p99", "p99.9", "max"));
        for (BenchReport.IoPoint p : points) {
            out.println(String.format(Locale.ROOT, "  %-11s %7s %4d %11.1f %10.0f %8s %9.1f %9.1f %9.1f %9.1f", p.pattern(),
                    Sizes.option(p.blockSize()), p.queueDepth(), p.mibPerSecond(), p.iops(),
                    p.cpuSeconds() == null ? "-" : String.format(Locale.ROOT, "%.2f", p.cpuSeconds()), p.latency().p50Micros(),
                    p.latency().p99Micros(), p.latency().p999Micros(), p.latency().maxMicros()));
        }
    }
}
