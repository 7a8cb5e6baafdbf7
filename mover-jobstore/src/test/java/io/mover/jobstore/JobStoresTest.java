package io.mover.jobstore;

import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mover.core.engine.JobKind;
import io.mover.core.service.JobId;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.Secret;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Opening the store: where it lives, what survives a restart, and one-line failures. */
class JobStoresTest {
    @TempDir
    Path dataDir;

    @Test
    void theEmbeddedStoreSurvivesARestart() {
        JobId id = JobId.random();
        try (JobDatabase database = JobStores.open(dataDir)) {
            database.store().create(new NewJob(id, JobKind.COPY, "{}"));
        }
        assertThat(dataDir.resolve("mover.mv.db")).exists();
        try (JobDatabase database = JobStores.open(dataDir)) {
            assertThat(database.store().get(id)).isPresent();
            assertThat(database.store().list(Optional.empty(), 0, 10)).hasSize(1);
        }
    }

    /**
     * A schedule's firing holds a connection under its schedule's row lock while it asks for a second: with a pool of 10
     * whatever the threads, 12 executions doing so at once waited out the connection timeout (10 s) and failed.
     */
    @Test
    void everyExecutionMayHoldTwoConnectionsAtOnce() throws Exception {
        int executions = 12;
        List<Connection> held = new ArrayList<>();
        try (JobDatabase database = JobStores.open(dataDir, executions)) {
            for (int i = 0; i < 2 * executions; i++) {
                held.add(database.dataSource().getConnection());
            }
            assertThat(held).hasSize(2 * executions);
        }
        finally {
            for (Connection connection : held) {
                connection.close();
            }
        }
    }

    @Test
    void anUnreachableServerFailsInOneLineWithoutItsOptions() {
        assertThatThrownBy(() -> JobStores.open("jdbc:postgresql://127.0.0.1:1/mover?password=hunter2", "mover", Secret.of("hunter2")))
                .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.IO_ERROR))
                .hasMessageStartingWith("cannot open the job store at jdbc:postgresql://127.0.0.1:1/mover: ")
                .hasMessageNotContaining("hunter2")
                .hasMessageNotContaining("\n");
    }

    @Test
    void anUnsupportedUrlIsAUserError() {
        assertThatThrownBy(() -> JobStores.open("jdbc:mysql://127.0.0.1/mover", "mover", Secret.of("")))
                .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessage("unsupported job store URL 'jdbc:mysql://127.0.0.1/mover': use jdbc:postgresql://host/db or a data directory");
    }
}
