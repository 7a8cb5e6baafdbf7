package io.mover.cli;

import java.io.PrintWriter;

import io.mover.core.engine.JobSummary;
import io.mover.core.engine.Progress;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;

import static java.util.Objects.requireNonNull;

/**
 * Progress as a bar on an interactive terminal (drawn on stderr by the progressbar library, redrawn
 * in place), measured in bytes, with the file counts beside it. The summary goes to stdout.
 */
final class ProgressBarOutput implements JobOutput {
    private static final long MIB = 1L << 20;

    private final PrintWriter out;
    private final boolean dryRun;
    private ProgressBar bar;
    private boolean ended;

    ProgressBarOutput(PrintWriter out, boolean dryRun) {
        this.out = requireNonNull(out, "out is null");
        this.dryRun = dryRun;
    }

    @Override
    public synchronized void onProgress(Progress progress) {
        if (ended || dryRun) {
            return;
        }
        if (bar == null) {
            // built on the first progress, so an error before the job starts leaves no half-drawn bar
            bar = new ProgressBarBuilder()
                    .setTaskName("copy")
                    .setInitialMax(progress.bytesTotal())
                    .setUnit("MiB", MIB)
                    .showSpeed()
                    .setUpdateIntervalMillis(500)
                    .build();
        }
        // while the source is still listed the total grows; the bar's max follows it
        bar.maxHint(Math.max(progress.bytesTotal(), progress.bytesDone()));
        bar.stepTo(progress.bytesDone());
        bar.setExtraMessage(" " + (progress.filesDone() + progress.filesSkipped()) + "/" + progress.filesScanned()
                + (progress.enumerating() ? "+" : "") + " files" + (progress.filesFailed() > 0 ? ", " + progress.filesFailed() + " failed" : "")
                + progress.sync().filter(io.mover.core.engine.SyncReport::planning)
                        .map(r -> ", scanning: " + r.sourceFiles() + " source, " + r.destinationFiles() + " destination").orElse(""));
    }

    @Override
    public synchronized void onDryRun(String action, String path, long size) {
        out.println(DryRunLine.format(action, path, size));
        out.flush();
    }

    @Override
    public synchronized void finished(JobSummary summary) {
        ended = true;
        if (bar != null && summary.state() == io.mover.core.engine.JobState.SUCCEEDED) {
            // the terminal progress may come after the summary; a finished job shows a full bar
            bar.stepTo(bar.getMax());
        }
        closeBar();
        SummaryText.print(out, summary, dryRun);
        out.flush();
    }

    @Override
    public synchronized void close() {
        closeBar();
        out.flush();
    }

    private void closeBar() {
        if (bar != null) {
            bar.close();
            bar = null;
        }
    }
}
