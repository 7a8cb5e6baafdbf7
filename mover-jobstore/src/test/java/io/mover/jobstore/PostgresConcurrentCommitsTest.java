package io.mover.jobstore;

import io.mover.spi.Secret;

/** Concurrent commits on PostgreSQL. */
class PostgresConcurrentCommitsTest extends ConcurrentCommitsContract {
    @Override
    JobDatabase openDatabase() {
        return JobStores.open(TestPostgres.get().newDatabase(), "postgres", Secret.of(""));
    }
}
