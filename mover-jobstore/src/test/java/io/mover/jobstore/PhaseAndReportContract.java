package io.mover.jobstore;

import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.mover.core.engine.JobKind;
import io.mover.core.engine.JobPhase;
import io.mover.core.engine.JobState;
import io.mover.core.service.JobId;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What the store keeps of bench jobs (issue 8: migration V1_6): lists by kind, the phase, the report; and what carried a
 * job's blocks (issue 5: V1_8); run on each database.
 */
abstract class PhaseAndReportContract extends StoreFixture {
    private JobId bench() {
        JobId id = JobId.random();
        store.create(new NewJob(id, JobKind.BENCH, "{\"kind\":\"BENCH\"}"));
        return id;
    }

    @Test
    void listsByKindAndStateNewestFirst() {
        JobId copy = newJob();
        JobId first = bench();
        JobId second = bench();
        store.transition(second, JobState.RUNNING, Optional.empty());

        assertThat(store.list(Optional.empty(), Optional.of(JobKind.BENCH), 0, 10)).extracting(StoredJob::id).containsExactly(second, first);
        assertThat(store.list(Optional.of(JobState.QUEUED), Optional.of(JobKind.BENCH), 0, 10)).extracting(StoredJob::id).containsExactly(first);
        assertThat(store.list(Optional.empty(), Optional.of(JobKind.COPY), 0, 10)).extracting(StoredJob::id).containsExactly(copy);
        assertThat(store.list(Optional.empty(), Optional.of(JobKind.BENCH), 1, 10)).extracting(StoredJob::id).containsExactly(first);
        assertThat(store.list(Optional.empty(), 0, 10)).hasSize(3);
    }

    @Test
    void keepsThePhaseAndALargeReport() {
        JobId id = bench();
        assertThat(store.get(id).orElseThrow().phase()).isEmpty();
        assertThat(store.report(id)).isEmpty();

        store.recordPhase(id, new JobPhase("concurrency 4: reading back", 3, 8));
        // a report with long timelines: several MB must fit (a text column, not a bounded varchar)
        String report = "{\"notes\":[\"" + "x".repeat(3_000_000) + "\"]}";
        store.recordReport(id, report);

        StoredJob job = store.get(id).orElseThrow();
        assertThat(job.phase()).contains(new JobPhase("concurrency 4: reading back", 3, 8));
        assertThat(store.report(id)).contains(report);
        assertThat(store.list(Optional.empty(), Optional.of(JobKind.BENCH), 0, 1).getFirst().phase()).isEqualTo(job.phase());
    }

    @Test
    void keepsTheCodecTheLastUnitDescribedClippedToItsColumn() {
        JobId id = newJob();
        assertThat(store.get(id).orElseThrow().codec()).isEmpty();

        store.recordCodec(id, "auto (blocks: zstd:1 94%, lz4 6%; 2 switches; last choice ...)");
        store.recordCodec(id, "auto (blocks: none 100%; 0 switches; last choice none)");
        assertThat(store.get(id).orElseThrow().codec()).contains("auto (blocks: none 100%; 0 switches; last choice none)");

        store.recordCodec(id, "auto " + "y".repeat(3000));
        assertThat(store.get(id).orElseThrow().codec().orElseThrow()).hasSize(2000).startsWith("auto yyy");
        assertThat(store.list(Optional.empty(), Optional.of(JobKind.COPY), 0, 1).getFirst().codec()).isEqualTo(store.get(id).orElseThrow().codec());
    }

    @Test
    void unknownJobsAreNotFound() {
        JobId unknown = JobId.random();
        assertThatThrownBy(() -> store.report(unknown)).isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND));
        assertThatThrownBy(() -> store.recordPhase(unknown, new JobPhase("x", 0, 1)))
                .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND));
        assertThatThrownBy(() -> store.recordReport(unknown, "{}"))
                .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND));
        assertThatThrownBy(() -> store.recordCodec(unknown, "none"))
                .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND));
    }
}
