package io.mover.jobstore;

import java.nio.file.Path;

import org.junit.jupiter.api.io.TempDir;

/** Concurrent commits on the embedded H2 database. */
class H2ConcurrentCommitsTest extends ConcurrentCommitsContract {
    @TempDir
    Path dataDir;

    @Override
    JobDatabase openDatabase() {
        return JobStores.open(dataDir);
    }
}
