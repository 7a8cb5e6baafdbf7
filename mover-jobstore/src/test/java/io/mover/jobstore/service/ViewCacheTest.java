package io.mover.jobstore.service;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import io.mover.core.engine.JobControls;
import io.mover.core.engine.JobSpec;
import io.mover.core.engine.JobState;
import io.mover.core.engine.TransferOptions;
import io.mover.core.service.JobId;
import io.mover.core.service.JobSettings;
import io.mover.core.service.JobView;

import static org.assertj.core.api.Assertions.assertThat;

class ViewCacheTest {
    private final JobId id = JobId.random();
    private final AtomicReference<JobState> stored = new AtomicReference<>(JobState.QUEUED);
    private final AtomicInteger reads = new AtomicInteger();
    private final AtomicLong nanos = new AtomicLong();
    /** Refreshes, and the cache's own maintenance, run when the test says. */
    private final Queue<Runnable> refreshes = new ArrayDeque<>();
    // time moves only when the test says so
    private final ViewCache cache = new ViewCache(this::read, refreshes::add, nanos::get);

    private Optional<JobView> read(JobId key) {
        reads.incrementAndGet();
        JobState state = stored.get();
        return state == null ? Optional.empty() : Optional.of(new JobView(key, JobSpec.copy("/a", "/b", TransferOptions.builder().build()), state,
                Instant.EPOCH, Optional.empty(), Optional.empty(), new JobSettings(1, 0, false, JobControls.SET)));
    }

    private void advance(java.time.Duration by) {
        nanos.addAndGet(by.toNanos());
    }

    @Test
    void keepsAViewUntilThisNodeChangesTheJob() {
        assertThat(cache.get(id)).map(JobView::state).contains(JobState.QUEUED);
        stored.set(JobState.RUNNING);
        assertThat(cache.get(id)).map(JobView::state).contains(JobState.QUEUED);
        assertThat(reads).hasValue(1);

        cache.invalidate(id);
        assertThat(cache.peek(id)).isEmpty();
        assertThat(cache.get(id)).map(JobView::state).contains(JobState.RUNNING);
        assertThat(reads).hasValue(2);
    }

    @Test
    void answersAStaleViewWhileReadingAFreshOne() {
        assertThat(cache.peek(id)).as("nothing kept before the first read").isEmpty();
        cache.get(id);
        stored.set(JobState.RUNNING);

        advance(ViewCache.FRESH.plusMillis(1));
        assertThat(cache.peek(id)).as("the stale view, answered at once").map(JobView::state).contains(JobState.QUEUED);
        assertThat(reads).as("the store is read in the background, not by the poller").hasValue(1);
        while (!refreshes.isEmpty()) {
            refreshes.remove().run();
        }
        assertThat(reads).hasValue(2);
        assertThat(cache.peek(id)).map(JobView::state).contains(JobState.RUNNING);
    }

    @Test
    void answersNothingTooOldWithoutReading() {
        cache.get(id);
        stored.set(JobState.SUCCEEDED);
        advance(ViewCache.KEPT.plusMillis(1));
        assertThat(cache.peek(id)).isEmpty();
        assertThat(cache.get(id)).map(JobView::state).contains(JobState.SUCCEEDED);
    }

    @Test
    void doesNotKeepAJobThatDoesNotExist() {
        stored.set(null);
        assertThat(cache.get(id)).isEmpty();
        stored.set(JobState.QUEUED);
        assertThat(cache.get(id)).isPresent();
    }
}
