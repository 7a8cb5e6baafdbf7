package io.mover.cli;

import java.io.PrintWriter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.mover.server.job.web.JobResponse;

/** The table of {@code mover jobs list}: one job a line, columns as wide as their widest cell. */
final class JobTable {
    private static final String[] HEADER = {"ID", "STATE", "CREATED", "PROGRESS", "THROUGHPUT", "SOURCE → DESTINATION"};

    private JobTable() {}

    static void print(PrintWriter out, List<JobResponse> jobs) {
        if (jobs.isEmpty()) {
            out.println("no jobs");
            return;
        }
        List<String[]> rows = new ArrayList<>();
        rows.add(HEADER);
        for (JobResponse job : jobs) {
            rows.add(row(job));
        }
        TextTable.print(out, rows);
    }

    static String[] row(JobResponse job) {
        String created = job.created() == null ? "-" : job.created().truncatedTo(ChronoUnit.SECONDS).toString();
        String progress = job.progress() == null ? "-" : String.format(Locale.ROOT, "%.1f %%", job.progress().percent());
        String source = job.spec() == null ? "?" : job.spec().source();
        String destination = job.spec() == null ? "?" : job.spec().destination();
        return new String[] {job.id(), job.state(), created, progress, throughput(job), source + " → " + destination};
    }

    /** The average of an ended job, the latest interval's rate of a running one. */
    private static String throughput(JobResponse job) {
        if (job.result() != null) {
            return Units.rate(job.result().bytesPerSecond());
        }
        if (job.progress() != null) {
            return Units.rate(job.progress().bytesPerSecond());
        }
        return "-";
    }
}
