package io.mover.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.mover.cli.ServerOptions.ServerTarget;
import io.mover.core.engine.JobSummary;
import io.mover.core.engine.TransferOptions;
import io.mover.server.job.web.JobResponse;

import static java.util.Objects.requireNonNull;

/**
 * {@code mover copy --server URL}: the job the standalone copy would run, submitted to a server and
 * followed there, shown by the same renderers and ending with the same exit code.
 */
final class RemoteCopy {
    private final CliContext context;
    private final ServerTarget target;
    private final CommonOptions common;
    private final PrintWriter out;
    private final PrintWriter err;

    RemoteCopy(CliContext context, ServerTarget target, CommonOptions common, PrintWriter out, PrintWriter err) {
        this.context = requireNonNull(context, "context is null");
        this.target = requireNonNull(target, "target is null");
        this.common = requireNonNull(common, "common is null");
        this.out = requireNonNull(out, "out is null");
        this.err = requireNonNull(err, "err is null");
    }

    int run(SubmitBody body, TransferOptions options, boolean cancelOnInterrupt) throws InterruptedException {
        CliLogging.configureClient(common.effectiveLogLevel());
        if (!common.pluginDirectories.isEmpty()) {
            // said rather than silently dropped: the user expects those plugins to be used
            err.println("mover: --plugins is ignored with --server: the job uses the server's plugins (see mover serve --plugins)");
        }
        ServerClient client = new ServerClient(target);
        JobResponse job = client.submit(body);
        // the hook first: from here on the job exists, and an interrupt must say so (or cancel it)
        try (DetachOnShutdown hook = DetachOnShutdown.install(context.shutdownHooks(), cancelOnInterrupt, client, job.id(), err);
                JobOutput output = JobOutput.create(common, context.terminal(), options.dryRun(), out)) {
            err.println("mover: job " + job.id() + " submitted to " + target.base());
            err.flush();
            JobSummary summary = new JobFollower(client, new ServerEvents(target), err).follow(job.id(), output);
            output.finished(summary);
            CopyCommand.reportFailure(err, summary);
            return ExitCode.of(summary).code();
        }
    }

    /**
     * The body of {@code POST /api/v1/jobs} (docs/rest.md). Options are a map so a new option is one
     * line here; sizes go as byte counts, which the server reads like "4MiB".
     */
    record SubmitBody(String kind, String source, String destination, Map<String, Object> options, Map<String, String> sourceConfig,
            Map<String, String> destinationConfig) {
        static SubmitBody copy(String source, String destination, TransferOptions o, Map<String, String> sourceConfig,
                Map<String, String> destinationConfig) {
            Map<String, Object> options = new LinkedHashMap<>();
            if (o.concurrencySet()) {
                options.put("concurrency", o.concurrency());    // left out, the server lets the endpoints suggest
            }
            options.put("blockSize", Integer.toString(o.blockSize()));
            options.put("include", List.copyOf(o.includes()));
            options.put("exclude", List.copyOf(o.excludes()));
            options.put("overwrite", o.overwrite().cliName());
            options.put("symlinks", o.symlinks().name().toLowerCase(Locale.ROOT));
            options.put("codec", o.codec());
            options.put("dryRun", o.dryRun());
            options.put("verify", o.verify());
            options.put("retries", o.maxRetries());
            options.put("retryBackoff", o.retryBackoff().toMillis() + "ms");
            if (o.bandwidthCap() > 0) {
                // the REST API takes megabits per second, as --cap-mbps does
                options.put("bandwidthCapMbps", o.bandwidthCap() * 8.0 / 1_000_000);
            }
            return new SubmitBody("copy", absolute(source), absolute(destination), options, Map.copyOf(sourceConfig), Map.copyOf(destinationConfig));
        }

        /** A sync: the copy's options, plus what the sync compares, filters and deletes. */
        static SubmitBody sync(String source, String destination, TransferOptions o, Map<String, String> sourceConfig,
                Map<String, String> destinationConfig) {
            SubmitBody copy = copy(source, destination, o, sourceConfig, destinationConfig);
            Map<String, Object> options = new LinkedHashMap<>(copy.options());
            options.remove("overwrite");
            options.remove("verify");
            io.mover.core.engine.SyncOptions wanted = o.sync();
            Map<String, Object> sync = new LinkedHashMap<>();
            sync.put("deleteDestination", wanted.deletes().cliName());
            sync.put("maxDelete", wanted.maxDelete());
            sync.put("compare", wanted.compare().cliName());
            sync.put("force", wanted.force());
            wanted.filesFrom().ifPresent(file -> sync.put("filesFrom", absolute(file)));
            sync.put("minSize", Long.toString(wanted.minSize()));
            if (wanted.maxSize() >= 0) {
                sync.put("maxSize", Long.toString(wanted.maxSize()));
            }
            wanted.minAge().ifPresent(age -> sync.put("minAge", age.toString()));
            wanted.maxAge().ifPresent(age -> sync.put("maxAge", age.toString()));
            if (wanted.catalog()) {
                sync.put("catalog", true);
            }
            options.put("sync", sync);
            return new SubmitBody("sync", copy.source(), copy.destination(), options, copy.sourceConfig(), copy.destinationConfig());
        }

        /**
         * A plain relative path means the same place it would standalone: the server runs elsewhere
         * (its own working directory), so it gets the path made absolute here. URIs go as typed.
         */
        static String absolute(String location) {
            if (location.matches("^[A-Za-z][A-Za-z0-9+.-]*:.*") || location.startsWith("/")) {
                return location;
            }
            return Path.of(location).toAbsolutePath().normalize().toString();
        }
    }
}
