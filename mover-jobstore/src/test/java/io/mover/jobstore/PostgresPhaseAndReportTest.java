package io.mover.jobstore;

import io.mover.spi.Secret;

/** Bench rows on a real PostgreSQL (a fresh database per test). */
class PostgresPhaseAndReportTest extends PhaseAndReportContract {
    @Override
    JobDatabase openDatabase() {
        return JobStores.open(TestPostgres.get().newDatabase(), "postgres", Secret.of(""));
    }
}
