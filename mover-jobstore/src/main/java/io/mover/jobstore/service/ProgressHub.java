package io.mover.jobstore.service;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.mover.core.engine.JobListener;
import io.mover.core.service.JobId;
import io.mover.jobstore.StoredJob;

/**
 * Progress for subscribers, read from the store's counters every interval: the job may be running on any
 * node (or on none while the server restarts), so the store is the one place that knows. After the job's
 * terminal state has been sent its listeners are dropped. Its thread also refreshes this node's heartbeat.
 */
final class ProgressHub implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(ProgressHub.class.getName());

    private final Durable durable;
    private final Map<JobId, List<JobListener>> listeners = new ConcurrentHashMap<>();
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon().name("mover-progress").factory());

    ProgressHub(Durable durable, Duration interval) {
        this.durable = durable;
        ticker.scheduleWithFixedDelay(this::tick, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
        ticker.scheduleWithFixedDelay(this::nodeHeartbeat, 10, 10, TimeUnit.SECONDS);
    }

    /** The node table's liveness, for the cluster's node list (db-scheduler keeps its own per execution). */
    private void nodeHeartbeat() {
        try {
            durable.store.nodeHeartbeat(durable.nodeId);
        }
        catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "could not refresh this node's heartbeat: " + e.getMessage());
        }
    }

    AutoCloseable subscribe(JobId id, JobListener listener) {
        listeners.computeIfAbsent(id, key -> new CopyOnWriteArrayList<>()).add(listener);
        return () -> listeners.computeIfPresent(id, (key, list) -> {
            list.remove(listener);
            return list.isEmpty() ? null : list;
        });
    }

    /**
     * The job reached its terminal state on this node: its subscribers hear of it now, not at the next tick (a
     * client following a job of a second waited up to an interval more for its end).
     */
    void ended(JobId id) {
        if (!listeners.containsKey(id)) {
            return;
        }
        try {
            ticker.execute(() -> tick(id));
        }
        catch (RejectedExecutionException e) {
            // closing: nobody is left to tell
        }
    }

    private void tick() {
        for (JobId id : listeners.keySet()) {
            tick(id);
        }
    }

    private void tick(JobId id) {
        try {
            Optional<StoredJob> job = durable.store.get(id);
            if (job.isEmpty()) {
                listeners.remove(id);
                return;
            }
            if (job.get().started().isEmpty() && !job.get().state().isTerminal()) {
                return;
            }
            var progress = durable.views.progress(job.get());
            for (JobListener listener : listeners.getOrDefault(id, List.of())) {
                try {
                    listener.onProgress(progress);
                }
                catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, "a job listener failed: " + e);
                }
            }
            if (job.get().state().isTerminal()) {
                listeners.remove(id);
            }
        }
        catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "could not read the progress of job " + id + ": " + e.getMessage());
        }
    }

    @Override
    public void close() {
        ticker.shutdownNow();
    }
}
