package io.mover.cli;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.mover.core.engine.FileFailure;
import io.mover.core.engine.JobSummary;
import io.mover.core.engine.Stage;
import io.mover.core.engine.StageStats;

/**
 * The end-of-job report in text: counts, bytes, elapsed, per-stage throughput and the bottleneck,
 * so an operator sees at once whether the source, the codec, the link or the destination set the pace.
 */
final class SummaryText {
    /** Failures listed by reason; the counts stay exact. */
    static final int FAILURES_SHOWN = 10;

    private SummaryText() {}

    static void print(PrintWriter out, JobSummary s, boolean dryRun) {
        out.println();
        if (s.sync().isPresent()) {
            printSync(out, s, s.sync().get(), dryRun);
        }
        else if (dryRun) {
            out.println("Dry run " + state(s) + ": nothing was changed; " + s.filesTransferred() + " files ("
                    + Units.bytes(s.bytesTransferred()) + ") would be copied, " + s.filesSkipped() + " skipped.");
        }
        else {
            out.println("Job " + state(s) + " in " + Units.duration(s.elapsed()));
        }
        out.printf(Locale.ROOT, "Files:       %d scanned, %d transferred, %d skipped, %d failed%n",
                s.filesScanned(), s.filesTransferred(), s.filesSkipped(), s.filesFailed());
        if (!dryRun) {
            out.printf(Locale.ROOT, "Directories: %d created%n", s.directoriesCreated());
            out.printf(Locale.ROOT, "Bytes:       %s transferred of %s scanned, %s%n",
                    Units.bytes(s.bytesTransferred()), Units.bytes(s.bytesScanned()), Units.rate(s.bytesPerSecond()));
            out.printf(Locale.ROOT, "Elapsed:     %s%n", Units.duration(s.elapsed()));
            out.printf(Locale.ROOT, "Retries:     %d%n", s.retries());
            out.printf(Locale.ROOT, "Codec:       %s%n", s.codec());
            if (!s.concurrency().isEmpty()) {
                out.printf(Locale.ROOT, "Concurrency: %s%n", s.concurrency());
            }
            printStages(out, s.stages());
            out.println("Bottleneck:  " + s.bottleneck().map(b -> b.explanation()).orElse("none measured (nothing was moved)"));
            printPluginCounters(out, s.pluginCounters());
        }
        printFailures(out, s);
        s.error().ifPresent(error -> out.println("Error:       " + error));
    }

    /** A sync's own lines first: azcopy sync's fields (scanned at both sides, copies, deletions), unchanged and the compare. */
    private static void printSync(PrintWriter out, JobSummary s, io.mover.core.engine.SyncReport r, boolean dryRun) {
        if (dryRun) {
            out.println("Dry run " + state(s) + ": nothing was changed; " + r.toCopy() + " files (" + Units.bytes(r.bytesToCopy())
                    + ") would be copied, " + r.toDelete() + " deleted; " + r.unchanged() + " unchanged.");
        }
        else {
            out.println("Sync " + state(s) + " in " + Units.duration(s.elapsed()));
        }
        out.printf(Locale.ROOT, "Scanned:     %d files at the source, %d at the destination%n", r.sourceFiles(), r.destinationFiles());
        out.printf(Locale.ROOT, "Compare:     %s (%.0f files/s listed); %d unchanged, %d with only mode or time set%n",
                Units.duration(r.compare()), r.entriesPerSecond(), r.unchanged(), r.attributesUpdated());
        out.printf(Locale.ROOT, "Copies:      %d files, %s%s%n", r.toCopy(), Units.bytes(r.bytesToCopy()), dryRun ? " (would be copied)" : "");
        out.printf(Locale.ROOT, "Deletions:   %d of %d planned%n", r.deleted(), r.toDelete());
        s.stages().stream().filter(st -> st.stage() == Stage.ENUMERATE || st.stage() == Stage.COMPARE).forEach(st ->
                out.printf(Locale.ROOT, "%-13s%s busy over %d %s, %s waiting%n", st.stage() == Stage.ENUMERATE ? "Listing:" : "Comparing:",
                        Units.duration(st.busy()), st.operations(), st.stage() == Stage.ENUMERATE ? "folder listings (both sides)" : "walk",
                        Units.duration(st.waiting())));
        r.warnings().forEach(w -> out.println("Warning:     " + w));
    }

    /** The per-stage table; also shown by {@code mover jobs show} for a job still running. */
    static void printStages(PrintWriter out, java.util.List<StageStats> stages) {
        Map<Stage, StageStats> byStage = stages.stream().collect(Collectors.toMap(StageStats::stage, Function.identity(), (a, b) -> a));
        out.println("Stages:      stage     bytes        ops       throughput    busy      waiting   share");
        for (Stage stage : Stage.DATA_PATH) {
            StageStats stats = byStage.get(stage);
            if (stats == null || (stats.bytes() == 0 && stats.operations() == 0)) {
                out.printf(Locale.ROOT, "             %-8s  -%n", stage);
                continue;
            }
            // COMMIT moves no bytes of its own: its operations (files committed) say what it did
            out.printf(Locale.ROOT, "             %-8s  %-11s  %-8d  %-12s  %-8s  %-8s  %3.0f%%%n", stage, Units.bytes(stats.bytes()),
                    stats.operations(), stats.bytes() == 0 ? "-" : Units.rate(stats.bytesPerBusySecond()), Units.duration(stats.busy()), Units.duration(stats.waiting()),
                    stats.shareOfBusy() * 100);
        }
    }

    /** What the plugins counted (throttled requests, retransmissions); zeros left out, nothing printed when all are. */
    private static void printPluginCounters(PrintWriter out, Map<String, Long> counters) {
        String label = "Plugins:     ";
        for (Map.Entry<String, Long> counter : counters.entrySet()) {
            if (counter.getValue() != 0) {
                out.printf(Locale.ROOT, "%s%s %d%n", label, counter.getKey(), counter.getValue());
                label = "             ";
            }
        }
    }

    private static void printFailures(PrintWriter out, JobSummary s) {
        if (s.failures().isEmpty()) {
            return;
        }
        int shown = Math.min(FAILURES_SHOWN, s.failures().size());
        out.printf(Locale.ROOT, "Failures:    %d (first %d):%n", s.filesFailed(), shown);
        for (FileFailure failure : s.failures().subList(0, shown)) {
            out.printf(Locale.ROOT, "  %s: %s %s (%d attempt%s)%n", failure.path(), failure.code(), failure.message(),
                    failure.attempts(), failure.attempts() == 1 ? "" : "s");
        }
        if (s.filesFailed() > shown) {
            out.printf(Locale.ROOT, "  ... and %d more%n", s.filesFailed() - shown);
        }
    }

    private static String state(JobSummary s) {
        return s.state().name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }
}
