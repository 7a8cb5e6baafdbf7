package io.mover.cli;

import java.io.PrintWriter;

import io.mover.core.engine.JobSummary;
import io.mover.core.engine.Progress;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

import static java.util.Objects.requireNonNull;

/** NDJSON for scripts: a progress object per interval, a dryRun object per planned change, a summary object last. */
final class JsonOutput implements JobOutput {
    static final ObjectMapper MAPPER = JsonMapper.builder().build();

    private final PrintWriter out;
    private boolean ended;

    JsonOutput(PrintWriter out) {
        this.out = requireNonNull(out, "out is null");
    }

    @Override
    public synchronized void onProgress(Progress progress) {
        // the summary closes the stream; a late terminal progress after it would break "summary is last"
        if (ended) {
            return;
        }
        write(JsonEvents.ProgressEvent.of(progress));
    }

    @Override
    public synchronized void onDryRun(String action, String path, long size) {
        write(JsonEvents.DryRunEvent.of(action, path, size));
    }

    @Override
    public synchronized void finished(JobSummary summary) {
        ended = true;
        write(JsonEvents.SummaryEvent.of(summary));
    }

    @Override
    public void close() {
        out.flush();
    }

    private void write(Object event) {
        out.println(MAPPER.writeValueAsString(event));
        out.flush();
    }
}
