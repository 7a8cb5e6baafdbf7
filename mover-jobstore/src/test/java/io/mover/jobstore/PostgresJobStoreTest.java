package io.mover.jobstore;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.mover.core.engine.JobKind;
import io.mover.core.service.JobId;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.Secret;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The store's contract on a real PostgreSQL (a fresh database per test). */
class PostgresJobStoreTest extends JobStoreContract {
    @Override
    JobDatabase openDatabase() {
        return JobStores.open(TestPostgres.get().newDatabase(), "postgres", Secret.of(""));
    }

    @Test
    void refusesADriverThatHidesPerRowCounts() {
        try (JobDatabase rewriting = JobStores.open(TestPostgres.get().newDatabase() + "?reWriteBatchedInserts=true", "postgres", Secret.of(""))) {
            JobStore store = rewriting.store();
            JobId id = JobId.random();
            store.create(new NewJob(id, JobKind.COPY, "{}"));
            assertThatThrownBy(() -> store.addUnits(id, List.of(unit(0), unit(1))))
                    .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_CONFIG))
                    .hasMessageEndingWith("remove reWriteBatchedInserts from the job store URL");
            assertThat(store.unfinishedUnits(id)).as("rolled back").isEmpty();
        }
    }
}
