package io.mover.cli;

import java.io.PrintWriter;
import java.util.Locale;

import io.mover.core.engine.JobSummary;
import io.mover.core.engine.Progress;

import static java.util.Objects.requireNonNull;

/**
 * Progress as one line per interval, for logs and pipes (the way azcopy reports when it has no
 * terminal): percent, files done/failed/pending/total, bytes, throughput and ETA.
 */
final class StatusLineOutput implements JobOutput {
    private final PrintWriter out;
    private final boolean dryRun;
    private boolean ended;

    StatusLineOutput(PrintWriter out, boolean dryRun) {
        this.out = requireNonNull(out, "out is null");
        this.dryRun = dryRun;
    }

    @Override
    public synchronized void onProgress(Progress progress) {
        // the terminal progress repeats what the summary says in full
        if (ended || progress.state().isTerminal()) {
            return;
        }
        out.println(line(progress));
        out.flush();
    }

    @Override
    public synchronized void onDryRun(String action, String path, long size) {
        out.println(DryRunLine.format(action, path, size));
        out.flush();
    }

    @Override
    public synchronized void finished(JobSummary summary) {
        ended = true;
        SummaryText.print(out, summary, dryRun);
        out.flush();
    }

    @Override
    public void close() {
        out.flush();
    }

    static String line(Progress p) {
        if (p.sync().filter(io.mover.core.engine.SyncReport::planning).isPresent()) {
            io.mover.core.engine.SyncReport r = p.sync().get();
            return String.format(Locale.ROOT, "scanning: %d files at the source, %d at the destination, %d unchanged, %d to copy, %d to delete, %s",
                    r.sourceFiles(), r.destinationFiles(), r.unchanged(), r.toCopy(), r.toDelete(), Units.duration(p.elapsed()));
        }
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%5.1f %%, %d done, %d skipped, %d failed, %d pending, %d total%s",
                p.percent(), p.filesDone(), p.filesSkipped(), p.filesFailed(), p.filesPending(), p.filesScanned(),
                p.enumerating() ? " (scanning)" : ""));
        line.append(", ").append(Units.bytes(p.bytesDone())).append(" of ").append(Units.bytes(p.bytesTotal()));
        line.append(", ").append(Units.rate(p.bytesPerSecond()));
        p.eta().ifPresent(eta -> line.append(", ETA ").append(Units.duration(eta)));
        p.bottleneck().ifPresent(b -> line.append(", bottleneck ").append(b.stage()));
        // a local copy's "none" says nothing; over a link, what carries the blocks and why
        p.codec().filter(codec -> !codec.equals("none")).ifPresent(codec -> line.append(", codec ").append(codec));
        return line.toString();
    }
}
