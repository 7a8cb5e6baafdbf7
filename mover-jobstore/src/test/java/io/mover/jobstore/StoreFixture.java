package io.mover.jobstore;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import io.mover.core.engine.JobKind;
import io.mover.core.service.JobId;

import static org.assertj.core.api.Assertions.assertThat;

/** A fresh store per test on the subclass's database, and helpers the contracts share. */
abstract class StoreFixture {
    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    JobDatabase database;
    JobStore store;

    abstract JobDatabase openDatabase();

    @BeforeEach
    void open() {
        database = openDatabase();
        // a stepping clock orders timestamps strictly; a page of 3 makes recordedPaths read several pages
        store = new JdbcJobStore(database.dataSource(), TestClock.stepping(T0, java.time.Duration.ofSeconds(1)), 3);
    }

    @AfterEach
    void close() {
        database.close();
    }

    JobId newJob() {
        JobId id = JobId.random();
        store.create(new NewJob(id, JobKind.COPY, "{\"source\":\"/a\",\"destination\":\"/b\"}"));
        return id;
    }

    void commit(JobId id, long seq, List<FileResult> results) {
        long epoch = store.beginAttempt(id, seq, "node-a").orElseThrow();
        assertThat(store.commitUnit(id, seq, epoch, results)).isTrue();
    }

    static NewUnit unit(long seq) {
        return new NewUnit(seq, 4, 400, ("unit " + seq).getBytes(StandardCharsets.UTF_8));
    }
}
