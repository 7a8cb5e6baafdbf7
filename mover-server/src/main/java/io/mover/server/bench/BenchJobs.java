package io.mover.server.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import io.mover.bench.BenchReport;
import io.mover.bench.IoBench;
import io.mover.bench.IoSettings;
import io.mover.bench.TransferBench;
import io.mover.bench.TransferSettings;
import io.mover.core.engine.CancellationToken;
import io.mover.core.engine.JobState;
import io.mover.core.plugin.PluginRegistry;
import io.mover.spi.MoverException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static java.util.Objects.requireNonNull;

/**
 * The server's bench jobs: run one at a time (two benches on one target would measure each other),
 * in this process, kept in memory (the last {@value #KEPT}); a bench is a measurement, not data to
 * carry across a restart, so it is not in the durable job store.
 */
public final class BenchJobs implements AutoCloseable {
    /** Benches waiting behind the one running, at most. */
    static final int MAX_QUEUED = 8;

    static final int KEPT = 100;
    private static final Logger LOG = LoggerFactory.getLogger(BenchJobs.class);

    private final PluginRegistry registry;
    private final Path scratch;
    private final Clock clock;
    private final ExecutorService runner = Executors.newSingleThreadExecutor(Thread.ofPlatform().name("mover-bench").daemon().factory());
    private final Map<String, Run> runs = new ConcurrentHashMap<>();

    public BenchJobs(PluginRegistry registry, Path scratch, Clock clock) {
        this.registry = requireNonNull(registry, "registry is null");
        this.scratch = requireNonNull(scratch, "scratch is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** One bench job; its state changes as it runs, the rest is fixed. */
    public static final class Run {
        final String id;
        final String mode;
        final String target;
        final Instant created;
        final CancellationToken cancellation = new CancellationToken();
        volatile JobState state = JobState.QUEUED;
        volatile Instant ended;
        volatile String error;
        volatile String code;
        volatile BenchReport report;

        Run(String id, String mode, String target, Instant created) {
            this.id = id;
            this.mode = mode;
            this.target = target;
            this.created = created;
        }
    }

    /** Checks the request (a 400 for bad fields) and queues the bench. */
    public Run submit(BenchRequest request) {
        Object settings = request.settings();
        String target = settings instanceof IoSettings io ? io.target() : ((TransferSettings) settings).target();
        // benches run one at a time; a queue kept short bounds what repeated submissions can hold
        if (runs.values().stream().filter(r -> r.state == JobState.QUEUED).count() >= MAX_QUEUED) {
            throw new io.mover.spi.MoverException(io.mover.spi.ErrorCode.THROTTLED, MAX_QUEUED + " benches are queued already (they run one at a "
                    + "time): wait for one to end (GET /api/v1/benches) and submit again");
        }
        Run run = new Run(UUID.randomUUID().toString(), request.io() ? "io" : "transfer", io.mover.spi.EndpointUri.parse(target).toString(),
                clock.instant());
        forgetOldest();
        runs.put(run.id, run);
        runner.execute(() -> execute(run, settings));
        return run;
    }

    private void execute(Run run, Object settings) {
        if (run.cancellation.isCancelled()) {
            finish(run, JobState.CANCELLED, null);
            return;
        }
        run.state = JobState.RUNNING;
        Path dir = null;
        try {
            dir = Files.createTempDirectory(Files.createDirectories(scratch), "bench-");
            run.report = settings instanceof IoSettings io
                    ? new IoBench(registry, clock, dir).run(io, line -> LOG.info("bench {}: {}", run.id, line), run.cancellation)
                    : new TransferBench(registry, clock, dir).run((TransferSettings) settings, line -> LOG.info("bench {}: {}", run.id, line),
                            run.cancellation);
            finish(run, run.cancellation.isCancelled() ? JobState.CANCELLED : JobState.SUCCEEDED, null);
        }
        catch (MoverException e) {
            run.code = e.code().name();
            finish(run, run.cancellation.isCancelled() ? JobState.CANCELLED : JobState.FAILED, e.getMessage());
        }
        catch (Exception e) {
            LOG.warn("bench {} failed", run.id, e);
            finish(run, JobState.FAILED, "unexpected error: " + e);
        }
        finally {
            if (dir != null) {
                dir.toFile().delete();
            }
        }
    }

    private void finish(Run run, JobState state, String error) {
        run.error = error;
        run.ended = clock.instant();
        run.state = state;
    }

    public Optional<Run> get(String id) {
        return Optional.ofNullable(runs.get(id));
    }

    /** Newest first. */
    public List<Run> list() {
        List<Run> all = new ArrayList<>(runs.values());
        all.sort((a, b) -> b.created.compareTo(a.created));
        return all;
    }

    /** Asks the bench to stop at its next block or operation; it ends CANCELLED, its files removed. */
    public void cancel(Run run) {
        run.cancellation.cancel();
    }

    private void forgetOldest() {
        List<Run> all = list();
        for (int i = KEPT - 1; i < all.size(); i++) {
            if (all.get(i).state.isTerminal()) {
                runs.remove(all.get(i).id);
            }
        }
    }

    @Override
    public void close() {
        runs.values().forEach(run -> run.cancellation.cancel());
        runner.shutdownNow();
    }
}
