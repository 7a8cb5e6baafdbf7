package io.mover.jobstore;

import io.mover.spi.Secret;

/** db-scheduler on PostgreSQL, polling with SELECT ... FOR UPDATE SKIP LOCKED. */
class PostgresSchedulerTest extends SchedulerContract {
    @Override
    JobDatabase openDatabase() {
        return JobStores.open(TestPostgres.get().newDatabase(), "postgres", Secret.of(""));
    }
}
