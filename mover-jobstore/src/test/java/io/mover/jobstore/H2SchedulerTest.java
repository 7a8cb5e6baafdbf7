package io.mover.jobstore;

import java.nio.file.Path;

import org.junit.jupiter.api.io.TempDir;

/** db-scheduler on the embedded H2 database. */
class H2SchedulerTest extends SchedulerContract {
    @TempDir
    Path dataDir;

    @Override
    JobDatabase openDatabase() {
        return JobStores.open(dataDir);
    }
}
