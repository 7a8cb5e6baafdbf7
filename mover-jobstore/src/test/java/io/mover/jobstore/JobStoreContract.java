package io.mover.jobstore;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import io.mover.core.engine.JobKind;
import io.mover.core.engine.JobState;
import io.mover.core.engine.Stage;
import io.mover.core.service.JobId;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What the job store promises, run on each database (see the subclasses). */
abstract class JobStoreContract extends StoreFixture {
    @Test
    void migrationCreatesEveryTable() throws SQLException {
        Set<String> tables = new TreeSet<>();
        try (Connection connection = database.dataSource().getConnection();
                ResultSet rows = connection.createStatement().executeQuery("select table_name from information_schema.tables")) {
            while (rows.next()) {
                tables.add(rows.getString(1).toLowerCase(java.util.Locale.ROOT));
            }
        }
        assertThat(tables).contains("job", "work_unit", "file_result", "stage_stats", "node", "scheduled_tasks", "flyway_schema_history");
    }

    @Test
    void createsGetsAndListsNewestFirst() {
        JobId first = newJob();
        JobId second = newJob();
        JobId third = newJob();
        store.transition(second, JobState.RUNNING, Optional.empty());

        StoredJob stored = store.get(first).orElseThrow();
        assertThat(stored.state()).isEqualTo(JobState.QUEUED);
        assertThat(stored.desiredState()).isEqualTo(DesiredState.RUNNING);
        assertThat(stored.kind()).isEqualTo(JobKind.COPY);
        assertThat(stored.specJson()).isEqualTo("{\"source\":\"/a\",\"destination\":\"/b\"}");
        assertThat(stored.totals()).isEqualTo(JobTotals.ZERO);
        assertThat(stored.started()).isEmpty();
        assertThat(store.get(JobId.random())).isEmpty();

        assertThat(store.list(Optional.empty(), 0, 10)).extracting(StoredJob::id).containsExactly(third, second, first);
        assertThat(store.list(Optional.empty(), 1, 1)).extracting(StoredJob::id).containsExactly(second);
        assertThat(store.list(Optional.of(JobState.QUEUED), 0, 10)).extracting(StoredJob::id).containsExactly(third, first);
        assertThat(store.list(Optional.of(JobState.RUNNING), 0, 10)).extracting(StoredJob::id).containsExactly(second);
        assertThat(store.list(Optional.empty(), 3, 10)).isEmpty();
    }

    @Test
    void countsJobsByStateWithPausedAsAsked() {
        JobId queued = newJob();
        JobId running = newJob();
        JobId paused = newJob();
        JobId failed = newJob();
        store.transition(running, JobState.RUNNING, Optional.empty());
        store.transition(paused, JobState.RUNNING, Optional.empty());
        store.setDesiredState(paused, DesiredState.PAUSED);
        store.setDesiredState(failed, DesiredState.PAUSED);
        store.transition(failed, JobState.FAILED, Optional.of(new JobError("NO_SPACE", "destination full")));

        assertThat(store.count(JobState.QUEUED)).isEqualTo(1);
        assertThat(store.count(JobState.RUNNING)).isEqualTo(1);
        assertThat(store.count(JobState.PAUSED)).isEqualTo(1);
        assertThat(store.count(JobState.FAILED)).as("an ended job counts by its end, whatever was asked").isEqualTo(1);
        assertThat(store.count(JobState.SUCCEEDED)).isZero();
    }

    @Test
    void updatesTheSpecOfAJobNotEnded() {
        JobId id = newJob();
        assertThat(store.updateSpec(id, "{\"changed\":true}")).isTrue();
        assertThat(store.get(id).orElseThrow().specJson()).isEqualTo("{\"changed\":true}");
        store.transition(id, JobState.CANCELLED, Optional.empty());
        assertThat(store.updateSpec(id, "{}")).isFalse();
        assertThat(store.get(id).orElseThrow().specJson()).isEqualTo("{\"changed\":true}");
        assertThatThrownBy(() -> store.updateSpec(JobId.random(), "{}")).isInstanceOf(MoverException.class);
    }

    @Test
    void terminalStateIsFinal() {
        JobId id = newJob();
        assertThat(store.setDesiredState(id, DesiredState.PAUSED)).isTrue();
        assertThat(store.transition(id, JobState.RUNNING, Optional.empty())).isTrue();
        Instant started = store.get(id).orElseThrow().started().orElseThrow();
        assertThat(store.transition(id, JobState.FAILED, Optional.of(new JobError("NO_SPACE", "destination full")))).isTrue();

        StoredJob failed = store.get(id).orElseThrow();
        assertThat(failed.state()).isEqualTo(JobState.FAILED);
        assertThat(failed.desiredState()).isEqualTo(DesiredState.PAUSED);
        assertThat(failed.started()).contains(started);
        assertThat(failed.ended()).isPresent();
        assertThat(failed.ended().get()).isAfter(started);
        assertThat(failed.error()).contains(new JobError("NO_SPACE", "destination full"));

        assertThat(store.transition(id, JobState.RUNNING, Optional.empty())).isFalse();
        assertThat(store.setDesiredState(id, DesiredState.CANCELLED)).isFalse();
        assertThat(store.get(id).orElseThrow()).isEqualTo(failed);
        JobId queued = newJob();
        assertThat(store.transition(queued, JobState.CANCELLED, Optional.empty())).isTrue();
        assertThat(store.get(queued).orElseThrow()).satisfies(job -> {
            assertThat(job.started()).isEmpty();
            assertThat(job.ended()).isPresent();
            assertThat(job.error()).isEmpty();
        });
        assertThatThrownBy(() -> store.setDesiredState(JobId.random(), DesiredState.CANCELLED))
                .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND));
    }

    @Test
    void aUnitCommitsEachFileExactlyOnceAcrossAttempts() {
        JobId id = newJob();
        assertThat(store.addUnits(id, List.of(unit(0), unit(1)))).isEqualTo(2);
        assertThat(store.addUnits(id, List.of(unit(1), unit(2)))).isEqualTo(1); // a driver run again re-adds seq 1
        store.addScanned(id, 10, 1000);

        long first = store.beginAttempt(id, 0, "node-a").orElseThrow();
        assertThat(store.checkpoint(id, 0, first, List.of(FileResult.transferred("a", 100, 1), FileResult.transferred("b", 200, 1)))).isTrue();
        assertThat(store.get(id).orElseThrow().totals().filesDone()).isEqualTo(2);

        // node-a is presumed dead: node-b takes the unit over with a newer epoch
        long second = store.beginAttempt(id, 0, "node-b").orElseThrow();
        assertThat(second).isEqualTo(first + 1);
        assertThat(store.heartbeat(id, 0, first)).isFalse();
        assertThat(store.heartbeat(id, 0, second)).isTrue();

        // node-a wakes up and commits late: refused, nothing changes
        StoredJob before = store.get(id).orElseThrow();
        assertThat(store.commitUnit(id, 0, first, List.of(FileResult.transferred("a", 100, 1), FileResult.transferred("c", 300, 1)),
                new StageDelta(Stage.WRITE, 400, 10, 1, 2))).isFalse();
        assertThat(store.get(id).orElseThrow()).isEqualTo(before);
        assertThat(store.files(id, Optional.empty(), Optional.empty(), 10)).extracting(f -> f.result().path()).containsExactly("a", "b");
        assertThat(store.stageStats(id)).isEmpty();

        // node-b redoes the unit: only c and d are new
        List<FileResult> all = List.of(FileResult.transferred("a", 100, 1), FileResult.transferred("b", 200, 1),
                FileResult.transferred("c", 300, 2), FileResult.failed("d", "PERMISSION_DENIED", "denied", 3));
        assertThat(store.commitUnit(id, 0, second, all, new StageDelta(Stage.WRITE, 600, 20, 2, 3))).isTrue();
        JobTotals totals = store.get(id).orElseThrow().totals();
        assertThat(totals).isEqualTo(new JobTotals(10, 1000, 3, 0, 1, 600, 3, 1, 3));

        // the same commit again (a lost acknowledgement) counts nothing twice; a DONE unit cannot be begun
        assertThat(store.commitUnit(id, 0, second, all, new StageDelta(Stage.WRITE, 0, 0, 0, 0))).isTrue();
        assertThat(store.get(id).orElseThrow().totals()).isEqualTo(totals);
        assertThat(store.beginAttempt(id, 0, "node-c")).isEmpty();
        assertThat(store.heartbeat(id, 0, second)).isFalse();

        assertThat(store.files(id, Optional.empty(), Optional.empty(), 10))
                .extracting(f -> f.result().path(), f -> f.result().outcome(), f -> f.result().attempts())
                .containsExactly(org.assertj.core.groups.Tuple.tuple("a", FileOutcome.TRANSFERRED, 1),
                        org.assertj.core.groups.Tuple.tuple("b", FileOutcome.TRANSFERRED, 1),
                        org.assertj.core.groups.Tuple.tuple("c", FileOutcome.TRANSFERRED, 2),
                        org.assertj.core.groups.Tuple.tuple("d", FileOutcome.FAILED, 3));
        RecordedFile failed = store.files(id, Optional.of(FileOutcome.FAILED), Optional.empty(), 10).getFirst();
        assertThat(failed.result()).isEqualTo(FileResult.failed("d", "PERMISSION_DENIED", "denied", 3));
        assertThat(failed.unitSeq()).isZero();
        assertThat(store.stageStats(id)).containsExactly(new NodeStageStats("node-b", Stage.WRITE, 600, 20, 2, 3));

        assertThat(store.unfinishedUnits(id)).extracting(UnitInfo::seq).containsExactly(1L, 2L);
        assertThat(store.unitCounts(Optional.of(id))).isEqualTo(new UnitCounts(2, 0, 1, 2, 1));
        assertThatThrownBy(() -> store.addUnits(JobId.random(), List.of(unit(0))))
                .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND));
        assertThatThrownBy(() -> store.commitUnit(id, 9, 1, List.of()))
                .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND));
    }

    @Test
    void unitsKeepTheirManifestAndState() {
        JobId id = newJob();
        store.addUnits(id, List.of(new NewUnit(0, 2, 30, new byte[] {1, 2, 3}), new NewUnit(1, 1, 5, new byte[0])));
        long epoch = store.beginAttempt(id, 1, "node-a").orElseThrow();
        assertThat(epoch).isEqualTo(1);

        assertThat(store.manifest(id, 0)).hasValueSatisfying(bytes -> assertThat(bytes).containsExactly(1, 2, 3));
        assertThat(store.manifest(id, 7)).isEmpty();
        List<UnitInfo> units = store.unfinishedUnits(id);
        assertThat(units).extracting(UnitInfo::seq, UnitInfo::state, UnitInfo::epoch, UnitInfo::owner, UnitInfo::fileCount)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(0L, UnitState.PENDING, 0L, Optional.empty(), 2L),
                        org.assertj.core.groups.Tuple.tuple(1L, UnitState.RUNNING, 1L, Optional.of("node-a"), 1L));
        assertThat(units.get(1).heartbeat()).isPresent();
        assertThat(store.unitCounts(Optional.empty())).isEqualTo(new UnitCounts(1, 1, 0, 1, 0));
        store.markEnumerationDone(id);
        assertThat(store.get(id).orElseThrow().enumerationDone()).isTrue();
    }

    @Test
    void recordedPathsStreamPageByPageAndFilesPageByPath() {
        JobId id = newJob();
        store.addUnits(id, List.of(unit(0), unit(1)));
        List<FileResult> results = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            results.add(i % 3 == 0 ? FileResult.skipped("dir/f" + i, "unchanged") : FileResult.transferred("dir/f" + i, i, 1));
        }
        commit(id, 0, results.subList(0, 6));
        commit(id, 1, results.subList(6, 10));

        try (Stream<String> paths = store.recordedPaths(id)) {
            assertThat(paths).containsExactly("dir/f0", "dir/f1", "dir/f2", "dir/f3", "dir/f4", "dir/f5", "dir/f6", "dir/f7", "dir/f8", "dir/f9");
        }
        try (Stream<String> paths = store.recordedPaths(id)) {
            assertThat(paths.limit(4)).containsExactly("dir/f0", "dir/f1", "dir/f2", "dir/f3");
        }
        assertThat(store.recordedPaths(newJob())).isEmpty();

        List<RecordedFile> page = store.files(id, Optional.of(FileOutcome.SKIPPED), Optional.empty(), 2);
        assertThat(page).extracting(f -> f.result().path()).containsExactly("dir/f0", "dir/f3");
        assertThat(store.files(id, Optional.of(FileOutcome.SKIPPED), Optional.of("dir/f3"), 2)).extracting(f -> f.result().path())
                .containsExactly("dir/f6", "dir/f9");
        assertThat(store.files(id, Optional.empty(), Optional.of("dir/f8"), 5)).extracting(f -> f.result().path()).containsExactly("dir/f9");
        assertThat(store.get(id).orElseThrow().totals()).satisfies(t -> {
            assertThat(t.filesSkipped()).isEqualTo(4);
            assertThat(t.filesDone()).isEqualTo(6);
            assertThat(t.bytesTransferred()).isEqualTo(1 + 2 + 4 + 5 + 7 + 8);
            assertThat(t.unitsDone()).isEqualTo(2);
        });
    }

    @Test
    void nodesRegisterAndBeat() {
        store.registerNode("node-a", "host-a");
        store.registerNode("node-b", "host-b");
        NodeInfo before = store.nodes().getFirst();
        store.nodeHeartbeat("node-a");
        store.registerNode("node-b", "host-b2");
        List<NodeInfo> nodes = store.nodes();
        assertThat(nodes).extracting(NodeInfo::id, NodeInfo::host)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("node-a", "host-a"), org.assertj.core.groups.Tuple.tuple("node-b", "host-b2"));
        assertThat(nodes.getFirst().heartbeat()).isAfter(before.heartbeat());
    }
}
