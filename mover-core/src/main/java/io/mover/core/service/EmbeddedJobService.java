package io.mover.core.service;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.mover.core.engine.JobListener;
import io.mover.core.engine.JobSpec;
import io.mover.core.engine.JobState;
import io.mover.core.engine.JobSummary;
import io.mover.core.engine.PreparedJob;
import io.mover.core.engine.TransferEngine;
import io.mover.core.plugin.PluginDescriptor;
import io.mover.core.plugin.PluginRegistry;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

import static java.util.Objects.requireNonNull;

/**
 * The job service of one process, jobs held in memory: what the CLI runs standalone, and what the
 * server runs until its durable job store arrives. A bounded number of jobs run at once; the rest queue.
 */
public final class EmbeddedJobService implements JobService {
    private static final System.Logger LOG = System.getLogger(EmbeddedJobService.class.getName());
    private static final int MAX_ENDED_JOBS_KEPT = 1000;
    /**
     * Failed files kept per job for {@link #files}; past this only their count is kept. Memory stays
     * bounded; the durable job store keeps every file's outcome.
     */
    public static final int MAX_FILE_RESULTS_KEPT = 10_000;

    private final PluginRegistry registry;
    private final TransferEngine engine;
    private final Path scratchRoot;
    private final Clock clock;
    private final Semaphore running;
    private final Map<JobId, JobRecord> jobs = new ConcurrentHashMap<>();
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();

    public EmbeddedJobService(PluginRegistry registry, Path scratchRoot, Clock clock, int maxRunningJobs) {
        this.registry = requireNonNull(registry, "registry is null");
        this.scratchRoot = requireNonNull(scratchRoot, "scratchRoot is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.engine = new TransferEngine(registry, clock);
        this.running = new Semaphore(maxRunningJobs);
    }

    public static EmbeddedJobService create(PluginRegistry registry, Path scratchRoot) {
        return new EmbeddedJobService(registry, scratchRoot, Clock.systemUTC(), 4);
    }

    @Override
    public JobView submit(JobSpec spec) {
        return submit(spec, JobListener.NONE);
    }

    @Override
    public JobView submit(JobSpec spec, JobListener listener) {
        requireNonNull(listener, "listener is null");
        JobId id = JobId.random();
        Path scratch = scratchRoot.resolve(id.key());
        PreparedJob prepared;
        try {
            Files.createDirectories(scratch);
            prepared = engine.prepare(spec, stableKey(spec), scratch);
        }
        catch (IOException e) {
            throw new MoverException(ErrorCode.IO_ERROR, "cannot create the scratch directory " + scratch + ": " + e.getMessage(), e);
        }
        catch (RuntimeException e) {
            ScratchSpace.delete(scratch);
            throw e;
        }
        JobRecord job = new JobRecord(id, spec, clock.instant());
        if (listener != JobListener.NONE) {
            job.subscribe(listener);
        }
        jobs.put(id, job);
        evictOldJobs();
        executor.execute(() -> run(job, prepared, scratch));
        return job.view();
    }

    /**
     * Runs the job, releases its endpoints and scratch space, and only then records the end: whoever
     * awaits the job finds everything it held released.
     */
    private void run(JobRecord job, PreparedJob prepared, Path scratch) {
        JobSummary summary = null;
        try (prepared) {
            running.acquire();
            try {
                job.started();
                summary = engine.run(prepared, job, job.cancellation(), job.controls());
            }
            finally {
                running.release();
            }
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            job.result().completeExceptionally(new MoverException(ErrorCode.CANCELLED, "the service stopped before job " + job.id() + " started"));
        }
        catch (RuntimeException e) {
            if (summary == null) {
                LOG.log(System.Logger.Level.ERROR, "job " + job.id() + " failed unexpectedly", e);
                job.result().completeExceptionally(e);
            }
            else {
                LOG.log(System.Logger.Level.WARNING, "job " + job.id() + " ended, and closing its endpoints failed: " + e);
            }
        }
        finally {
            ScratchSpace.delete(scratch);
        }
        if (summary != null) {
            job.finished(summary);
            LOG.log(System.Logger.Level.INFO, "job {0} ended {1}", job.id(), summary.state());
        }
    }

    @Override
    public Optional<JobView> get(JobId id) {
        return Optional.ofNullable(jobs.get(id)).map(JobRecord::view);
    }

    /** Jobs live in memory here: a view never blocks. */
    @Override
    public Optional<JobView> peek(JobId id) {
        return get(id);
    }

    @Override
    public List<JobView> list(Optional<JobState> state, int offset, int limit) {
        return jobs.values().stream()
                .map(JobRecord::view)
                .filter(view -> state.isEmpty() || view.state() == state.get())
                .sorted(Comparator.comparing(JobView::created).reversed().thenComparing(v -> v.id().value()))
                .skip(Math.max(0, offset))
                .limit(Math.max(0, limit))
                .toList();
    }

    @Override
    public JobView cancel(JobId id) {
        JobRecord job = find(id);
        job.cancellation().cancel();
        return job.view();
    }

    @Override
    public JobView pause(JobId id) {
        JobRecord job = live(id, "pause");
        job.controls().pause();
        return job.view();
    }

    @Override
    public JobView resume(JobId id) {
        JobRecord job = live(id, "resume");
        job.controls().resume();
        return job.view();
    }

    @Override
    public JobView update(JobId id, JobUpdate update) {
        requireNonNull(update, "update is null");
        update.check();
        JobRecord job = live(id, "update");
        update.applyTo(job.controls());
        return job.view();
    }

    @Override
    public FileResults files(JobId id, Optional<FileOutcome> outcome, int offset, int limit) {
        return find(id).files(outcome, offset, limit);
    }

    @Override
    public AutoCloseable subscribe(JobId id, JobListener listener) {
        return find(id).subscribe(listener);
    }

    @Override
    public Optional<JobSummary> await(JobId id, Duration timeout) throws InterruptedException {
        try {
            return Optional.of(find(id).result().get(timeout.toMillis(), TimeUnit.MILLISECONDS));
        }
        catch (TimeoutException e) {
            return Optional.empty();
        }
        catch (ExecutionException e) {
            if (e.getCause() instanceof MoverException mover) {
                throw mover;
            }
            throw new MoverException(ErrorCode.INTERNAL, "job " + id + " failed unexpectedly: " + e.getCause(), e.getCause());
        }
    }

    @Override
    public List<PluginDescriptor> plugins() {
        return registry.descriptors();
    }

    @Override
    public void close() {
        jobs.values().forEach(job -> job.cancellation().cancel());
        executor.shutdown();
        try {
            if (!executor.awaitTermination(30, TimeUnit.SECONDS)) {
                LOG.log(System.Logger.Level.WARNING, "jobs did not stop within 30 s");
            }
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private JobRecord find(JobId id) {
        JobRecord job = jobs.get(id);
        if (job == null) {
            throw new MoverException(ErrorCode.NOT_FOUND, "no job " + id + "; list jobs with 'mover jobs list'");
        }
        return job;
    }

    /** The job, if it has not ended; otherwise a {@link JobEndedException}. */
    private JobRecord live(JobId id, String action) {
        JobRecord job = find(id);
        JobState state = job.state();
        if (state.isTerminal()) {
            throw new JobEndedException(id, state, action);
        }
        return job;
    }

    /** Keeps memory bounded in a long-running process: the oldest ended jobs are forgotten first. */
    private void evictOldJobs() {
        if (jobs.size() <= MAX_ENDED_JOBS_KEPT) {
            return;
        }
        List<JobView> ended = new ArrayList<>(jobs.values().stream().map(JobRecord::view).filter(v -> v.state().isTerminal()).toList());
        ended.sort(Comparator.comparing(JobView::created));
        for (int i = 0; i < ended.size() && jobs.size() > MAX_ENDED_JOBS_KEPT; i++) {
            jobs.remove(ended.get(i).id());
        }
    }

    /**
     * The same source, destination and kind give the same key, so a rerun after a crash finds and
     * removes the temporaries the crashed run left (see {@link io.mover.spi.Sink#removeStaleTemporaries}).
     */
    static String stableKey(JobSpec spec) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            byte[] digest = sha.digest((spec.kind() + "\n" + spec.source() + "\n" + spec.destination()).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8);
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }
}
