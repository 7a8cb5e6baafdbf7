package io.mover.jobstore.service;

import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.mover.core.engine.JobSpec;
import io.mover.core.engine.JobState;
import io.mover.core.engine.TransferOptions;
import io.mover.core.service.JobId;
import io.mover.core.service.JobSettings;
import io.mover.core.service.JobView;

import static org.assertj.core.api.Assertions.assertThat;

class ViewCacheTest {
    private final ViewCache cache = new ViewCache();
    private final AtomicInteger builds = new AtomicInteger();

    private Optional<JobView> build(JobId id, JobState state) {
        builds.incrementAndGet();
        return Optional.of(new JobView(id, JobSpec.copy("/a", "/b", TransferOptions.builder().build()), state, Instant.EPOCH, Optional.empty(),
                Optional.empty(), new JobSettings(1, 0, false)));
    }

    @Test
    void keepsAViewUntilThisNodeChangesTheJob() {
        JobId id = JobId.random();
        assertThat(cache.get(id, key -> build(key, JobState.QUEUED))).map(JobView::state).contains(JobState.QUEUED);
        assertThat(cache.get(id, key -> build(key, JobState.RUNNING))).map(JobView::state).contains(JobState.QUEUED);
        assertThat(builds).hasValue(1);

        cache.invalidate(id);
        assertThat(cache.get(id, key -> build(key, JobState.RUNNING))).map(JobView::state).contains(JobState.RUNNING);
        assertThat(builds).hasValue(2);
    }

    @Test
    void doesNotKeepAJobThatDoesNotExist() {
        JobId id = JobId.random();
        assertThat(cache.get(id, key -> Optional.empty())).isEmpty();
        assertThat(cache.get(id, key -> build(key, JobState.QUEUED))).isPresent();
    }
}
