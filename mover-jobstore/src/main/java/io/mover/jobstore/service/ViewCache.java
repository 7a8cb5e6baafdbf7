package io.mover.jobstore.service;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.function.Function;

import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;
import com.github.benmanes.caffeine.cache.Ticker;

import io.mover.core.service.JobId;
import io.mover.core.service.JobView;

/**
 * Job views as {@code GET /jobs/{id}} shows them, kept for a moment: two hundred clients polling ten jobs
 * would otherwise read each job's row and stage figures thousands of times a second, while the figures
 * change at each unit checkpoint (every 2 s at most).
 * <p>
 * A view older than {@link #FRESH} is still answered while a fresh one is read in the background, so a
 * poller never waits on the job store, whose reads can stall for seconds behind the jobs' own commits and
 * disk writes (a bound of 2 s here would send every poller to the store whenever one refresh stalls that
 * long). Only a view older than {@link #KEPT}, which means the store has not
 * answered a refresh for that long, is not answered any more. This node drops a job's view whenever it
 * changes the job's state (start, pause, resume, cancel, settings, end), so a poller here never sees a state
 * older than its own action; other nodes' changes show
 * at the first refresh after them (one store read after {@link #FRESH}).
 */
final class ViewCache {
    static final Duration FRESH = Duration.ofMillis(500);
    static final Duration KEPT = Duration.ofSeconds(30);

    private final LoadingCache<JobId, JobView> views;

    /** Views read by {@code load} (empty for a job that does not exist, which is not kept), refreshed on virtual threads. */
    ViewCache(Function<JobId, Optional<JobView>> load) {
        this(load, command -> Thread.ofVirtual().name("mover-view-refresh").start(command), Ticker.systemTicker());
    }

    ViewCache(Function<JobId, Optional<JobView>> load, Executor refresher, Ticker ticker) {
        this.views = Caffeine.newBuilder()
                .refreshAfterWrite(FRESH)
                .expireAfterWrite(KEPT)
                .maximumSize(10_000)
                .executor(refresher)
                .ticker(ticker)
                .build(id -> load.apply(id).orElse(null));
    }

    /** The job's view, read from the store when none is kept (blocking). */
    Optional<JobView> get(JobId id) {
        return Optional.ofNullable(views.get(id));
    }

    /** The job's view when one is kept, without blocking (a stale one starts its refresh); empty otherwise. */
    Optional<JobView> peek(JobId id) {
        return Optional.ofNullable(views.getIfPresent(id));
    }

    void invalidate(JobId id) {
        views.invalidate(id);
    }
}
