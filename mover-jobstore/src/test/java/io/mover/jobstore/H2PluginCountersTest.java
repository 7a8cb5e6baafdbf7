package io.mover.jobstore;

import java.nio.file.Path;

import org.junit.jupiter.api.io.TempDir;

/** Plugin counters on the embedded H2 file database in PostgreSQL mode. */
class H2PluginCountersTest extends PluginCountersContract {
    @TempDir
    Path dataDir;

    @Override
    JobDatabase openDatabase() {
        return JobStores.open(dataDir);
    }
}
