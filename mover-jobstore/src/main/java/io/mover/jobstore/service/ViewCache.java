package io.mover.jobstore.service;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import io.mover.core.service.JobId;
import io.mover.core.service.JobView;

/**
 * Job views as {@code GET /jobs/{id}} shows them, kept for a moment: two hundred clients polling ten jobs
 * would otherwise read each job's row and stage figures thousands of times a second, while the figures
 * change at each unit checkpoint (every 2 s at most). This node drops a job's view whenever it changes the
 * job's state (start, pause, resume, cancel, settings, end), so a poller here never sees a state older than
 * its own action; other nodes' changes show within {@link #TTL}.
 */
final class ViewCache {
    static final Duration TTL = Duration.ofMillis(500);

    private final Cache<JobId, JobView> views = Caffeine.newBuilder().expireAfterWrite(TTL).maximumSize(10_000).build();

    /** The job's view, from the cache or built by {@code build} (a job that does not exist is not cached). */
    Optional<JobView> get(JobId id, Function<JobId, Optional<JobView>> build) {
        return Optional.ofNullable(views.get(id, key -> build.apply(key).orElse(null)));
    }

    void invalidate(JobId id) {
        views.invalidate(id);
    }
}
