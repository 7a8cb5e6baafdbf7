package io.mover.jobstore;

import io.mover.spi.Secret;

/** Plugin counters on a real PostgreSQL (a fresh database per test). */
class PostgresPluginCountersTest extends PluginCountersContract {
    @Override
    JobDatabase openDatabase() {
        return JobStores.open(TestPostgres.get().newDatabase(), "postgres", Secret.of(""));
    }
}
