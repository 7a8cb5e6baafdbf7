package io.mover.jobstore;

import io.mover.spi.Secret;

/** The store's contract on a real PostgreSQL (a fresh database per test). */
class PostgresJobStoreTest extends JobStoreContract {
    @Override
    JobDatabase openDatabase() {
        return JobStores.open(TestPostgres.get().newDatabase(), "postgres", Secret.of(""));
    }
}
