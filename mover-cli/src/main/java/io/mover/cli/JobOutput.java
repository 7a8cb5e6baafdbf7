package io.mover.cli;

import java.io.PrintWriter;

import io.mover.core.engine.JobListener;
import io.mover.core.engine.JobSummary;
import io.mover.core.engine.TransferOptions;

/**
 * How a running job is shown: it receives the job's events and, at the end, its summary.
 * Implementations are thread-safe: dry-run events arrive from transfer threads.
 */
interface JobOutput extends JobListener, AutoCloseable {
    /** Shows the result; called once, after the job has ended. */
    void finished(JobSummary summary);

    @Override
    void close();

    static JobOutput create(CommonOptions common, boolean terminal, TransferOptions options, PrintWriter out) {
        return create(common, terminal, options.dryRun(), out);
    }

    static JobOutput create(CommonOptions common, boolean terminal, boolean dryRun, PrintWriter out) {
        if (common.json()) {
            return new JsonOutput(out);
        }
        if (terminal) {
            return new ProgressBarOutput(out, dryRun);
        }
        return new StatusLineOutput(out, dryRun);
    }
}
