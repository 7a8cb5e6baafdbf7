package io.mover.server.metrics;

import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.mover.core.engine.EngineStats;
import io.mover.core.engine.FileFailure;
import io.mover.core.engine.JobKind;
import io.mover.core.engine.JobListener;
import io.mover.core.engine.JobSpec;
import io.mover.core.engine.JobState;
import io.mover.core.engine.JobSummary;
import io.mover.core.engine.Progress;
import io.mover.core.engine.Stage;
import io.mover.core.engine.StageStats;
import io.mover.core.plugin.PluginDescriptor;
import io.mover.core.service.FileOutcome;
import io.mover.core.service.FileResults;
import io.mover.core.service.JobId;
import io.mover.core.service.JobService;
import io.mover.core.service.JobUpdate;
import io.mover.core.service.JobView;
import io.mover.core.service.NodeView;

import static java.util.Objects.requireNonNull;

/**
 * A {@link JobService} that counts what its jobs do into Micrometer: {@code mover_jobs{state}} (gauge),
 * {@code mover_stage_bytes_total{stage}}, {@code mover_stage_busy_seconds_total{stage}},
 * {@code mover_stage_wait_seconds_total{stage}} and {@code mover_files_total{outcome}} (counters), and
 * the engine's process-wide {@code mover_retries_total}, {@code mover_buffer_pool_in_use_bytes} and
 * {@code mover_plugin_counter_total{name}} (what plugins count, such as throttled requests; a name is registered
 * with the first progress after a plugin reported it).
 * Every other call is passed through, so the meters stay correct whatever implementation sits underneath.
 */
public final class MeteredJobService implements JobService {
    private final JobService delegate;
    private final Map<Stage, Counter> stageBytes = new EnumMap<>(Stage.class);
    private final Map<Stage, Counter> stageBusy = new EnumMap<>(Stage.class);
    private final Map<Stage, Counter> stageWait = new EnumMap<>(Stage.class);
    private final Counter filesTransferred;
    private final Counter filesSkipped;
    private final Counter filesFailed;
    private final MeterRegistry registry;
    private final Set<String> pluginCounters = ConcurrentHashMap.newKeySet();

    public MeteredJobService(JobService delegate, MeterRegistry registry) {
        this.delegate = requireNonNull(delegate, "delegate is null");
        this.registry = requireNonNull(registry, "registry is null");
        for (JobState state : JobState.values()) {
            Gauge.builder("mover.jobs", delegate, service -> service.count(state))
                    .tag("state", state.name().toLowerCase(Locale.ROOT))
                    .description("Jobs the server knows, by state")
                    .register(registry);
        }
        for (Stage stage : Stage.values()) {
            stageBytes.put(stage, Counter.builder("mover.stage.bytes")
                    .tag("stage", stage.name().toLowerCase(Locale.ROOT))
                    .baseUnit("bytes")
                    .description("Bytes that passed through each stage, over all jobs")
                    .register(registry));
        }
        for (Stage stage : Stage.values()) {
            String tag = stage.name().toLowerCase(Locale.ROOT);
            stageBusy.put(stage, Counter.builder("mover.stage.busy").tag("stage", tag).baseUnit("seconds")
                    .description("Time each stage spent working, over all jobs and workers").register(registry));
            stageWait.put(stage, Counter.builder("mover.stage.wait").tag("stage", tag).baseUnit("seconds")
                    .description("Time each stage spent waiting for buffers or permits, over all jobs and workers").register(registry));
        }
        FunctionCounter.builder("mover.retries", EngineStats.class, type -> EngineStats.retries())
                .description("Retries of transient failures, over all jobs").register(registry);
        Gauge.builder("mover.buffer.pool.in.use", EngineStats.class, type -> EngineStats.bufferBytesInUse())
                .baseUnit("bytes").description("Block buffer memory held by blocks in flight, over all jobs").register(registry);
        filesTransferred = filesCounter(registry, "transferred");
        filesSkipped = filesCounter(registry, "skipped");
        filesFailed = filesCounter(registry, "failed");
    }

    /** Plugin counters are named by the plugins, so each is registered when it first appears; its value is read when scraped. */
    private void registerPluginCounters() {
        for (String name : EngineStats.pluginCounters().keySet()) {
            if (pluginCounters.add(name)) {
                FunctionCounter.builder("mover.plugin.counter", EngineStats.class, type -> EngineStats.pluginCounter(name)).tag("name", name)
                        .description("What plugins counted over all jobs, by side and name (throttled requests, retransmissions)").register(registry);
            }
        }
    }

    private static Counter filesCounter(MeterRegistry registry, String outcome) {
        return Counter.builder("mover.files").tag("outcome", outcome).description("Files by outcome, over all jobs").register(registry);
    }

    /** Subscribed before the job starts: a job that ends within milliseconds is counted too. */
    @Override
    public JobView submit(JobSpec spec) {
        return delegate.submit(spec, new DeltaListener());
    }

    @Override
    public JobView submit(JobSpec spec, JobListener listener) {
        DeltaListener meters = new DeltaListener();
        return delegate.submit(spec, new JobListener() {
            @Override
            public void onProgress(Progress progress) {
                meters.onProgress(progress);
                listener.onProgress(progress);
            }

            @Override
            public void onDryRun(String action, String path, long size) {
                listener.onDryRun(action, path, size);
            }

            @Override
            public void onFileFailed(FileFailure failure) {
                listener.onFileFailed(failure);
            }
        });
    }

    @Override
    public Optional<JobView> get(JobId id) {
        return delegate.get(id);
    }

    @Override
    public Optional<JobView> peek(JobId id) {
        return delegate.peek(id);
    }

    @Override
    public List<JobView> list(Optional<JobState> state, int offset, int limit) {
        return delegate.list(state, offset, limit);
    }

    @Override
    public List<JobView> list(Optional<JobState> state, Optional<JobKind> kind, int offset, int limit) {
        return delegate.list(state, kind, offset, limit);
    }

    @Override
    public Optional<String> report(JobId id) {
        return delegate.report(id);
    }

    @Override
    public List<JobView> listBySchedule(String scheduleId, Optional<JobState> state, int offset, int limit) {
        return delegate.listBySchedule(scheduleId, state, offset, limit);
    }

    @Override
    public List<NodeView> nodes() {
        return delegate.nodes();
    }

    @Override
    public long count(JobState state) {
        return delegate.count(state);
    }

    @Override
    public JobView cancel(JobId id) {
        return delegate.cancel(id);
    }

    @Override
    public JobView pause(JobId id) {
        return delegate.pause(id);
    }

    @Override
    public JobView resume(JobId id) {
        return delegate.resume(id);
    }

    @Override
    public JobView update(JobId id, JobUpdate update) {
        return delegate.update(id, update);
    }

    @Override
    public FileResults files(JobId id, Optional<FileOutcome> outcome, int offset, int limit) {
        return delegate.files(id, outcome, offset, limit);
    }

    @Override
    public AutoCloseable subscribe(JobId id, JobListener listener) {
        return delegate.subscribe(id, listener);
    }

    @Override
    public Optional<JobSummary> await(JobId id, Duration timeout) throws InterruptedException {
        return delegate.await(id, timeout);
    }

    @Override
    public List<PluginDescriptor> plugins() {
        return delegate.plugins();
    }

    @Override
    public void close() {
        delegate.close();
    }

    /**
     * Progress snapshots are cumulative per job; the counters take the difference from the last one.
     * The service calls a listener from one thread at a time, so the fields need no lock.
     */
    private final class DeltaListener implements JobListener {
        private final Map<Stage, Long> lastStageBytes = new EnumMap<>(Stage.class);
        private final Map<Stage, Long> lastBusyNanos = new EnumMap<>(Stage.class);
        private final Map<Stage, Long> lastWaitNanos = new EnumMap<>(Stage.class);
        private long lastDone;
        private long lastSkipped;
        private long lastFailed;

        @Override
        public void onProgress(Progress progress) {
            registerPluginCounters();
            for (StageStats stats : progress.stages()) {
                long previous = lastStageBytes.getOrDefault(stats.stage(), 0L);
                if (stats.bytes() > previous) {
                    stageBytes.get(stats.stage()).increment(stats.bytes() - previous);
                    lastStageBytes.put(stats.stage(), stats.bytes());
                }
                seconds(stageBusy.get(stats.stage()), lastBusyNanos, stats.stage(), stats.busy().toNanos());
                seconds(stageWait.get(stats.stage()), lastWaitNanos, stats.stage(), stats.waiting().toNanos());
            }
            lastDone = add(filesTransferred, progress.filesDone(), lastDone);
            lastSkipped = add(filesSkipped, progress.filesSkipped(), lastSkipped);
            lastFailed = add(filesFailed, progress.filesFailed(), lastFailed);
        }

        private static void seconds(Counter counter, Map<Stage, Long> last, Stage stage, long nanos) {
            long previous = last.getOrDefault(stage, 0L);
            if (nanos > previous) {
                counter.increment((nanos - previous) / 1e9);
                last.put(stage, nanos);
            }
        }

        private static long add(Counter counter, long now, long before) {
            if (now > before) {
                counter.increment(now - before);
                return now;
            }
            return before;
        }
    }
}
