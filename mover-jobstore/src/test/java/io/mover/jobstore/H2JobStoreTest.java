package io.mover.jobstore;

import java.nio.file.Path;

import org.junit.jupiter.api.io.TempDir;

/** The store's contract on the embedded H2 file database in PostgreSQL mode. */
class H2JobStoreTest extends JobStoreContract {
    @TempDir
    Path dataDir;

    @Override
    JobDatabase openDatabase() {
        return JobStores.open(dataDir);
    }
}
