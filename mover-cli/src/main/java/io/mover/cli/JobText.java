package io.mover.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

import io.mover.core.engine.JobState;
import io.mover.server.job.web.JobResponse;
import io.mover.server.job.web.JobResponse.OptionsResponse;
import io.mover.server.job.web.JobResponse.SpecResponse;

/**
 * A server's job as text for {@code mover jobs show}: the spec, then either the progress so far (with
 * the per-stage table) or, once it has ended, exactly the summary a standalone {@code mover copy} prints.
 */
final class JobText {
    private JobText() {}

    static void print(PrintWriter out, JobResponse job) {
        JobState state = RestRecords.state(job.state());
        out.println("Job:         " + job.id() + " " + job.state());
        out.println("Created:     " + job.created());
        SpecResponse spec = job.spec();
        if (spec != null) {
            out.println("Kind:        " + spec.kind());
            out.println("Source:      " + spec.source() + configKeys(spec.sourceConfigKeys()));
            out.println("Destination: " + spec.destination() + configKeys(spec.destinationConfigKeys()));
            if (spec.options() != null) {
                out.println("Options:     " + options(spec.options()));
            }
            String concurrency = RestRecords.concurrency(job.settings());
            if (!concurrency.isEmpty() && !state.isTerminal()) { // an ended job's summary says it
                out.println("Concurrency: " + concurrency);
            }
        }
        boolean dryRun = spec != null && spec.options() != null && spec.options().dryRun();
        if (state.isTerminal()) {
            SummaryText.print(out, RestRecords.summary(job), dryRun);
            return;
        }
        if (job.progress() == null) {
            out.println("Progress:    not started");
            return;
        }
        out.println("Progress:   " + StatusLineOutput.line(RestRecords.progress(job.progress(), job)));
        SummaryText.printStages(out, RestRecords.stages(job.stages()));
        out.println("Bottleneck:  " + RestRecords.bottleneck(job.bottleneck()).map(b -> b.explanation() + " (so far)").orElse("none measured yet"));
    }

    /** Plugin settings show by key only: the server never sends their values, which may be secrets. */
    private static String configKeys(List<String> keys) {
        return keys == null || keys.isEmpty() ? "" : " (config: " + String.join(", ", keys) + ")";
    }

    static String options(OptionsResponse o) {
        StringBuilder text = new StringBuilder(String.format(Locale.ROOT, "concurrency %s, block size %s, overwrite %s, symlinks %s, codec %s, retries %d",
                o.concurrency() == null ? "not set" : o.concurrency(), Units.bytes(o.blockSize()), o.overwrite(), o.symlinks(), o.codec(), o.retries()));
        if (o.include() != null && !o.include().isEmpty()) {
            text.append(", include ").append(String.join(" ", o.include()));
        }
        if (o.exclude() != null && !o.exclude().isEmpty()) {
            text.append(", exclude ").append(String.join(" ", o.exclude()));
        }
        if (o.verify()) {
            text.append(", verify");
        }
        if (o.dryRun()) {
            text.append(", dry run");
        }
        return text.toString();
    }
}
