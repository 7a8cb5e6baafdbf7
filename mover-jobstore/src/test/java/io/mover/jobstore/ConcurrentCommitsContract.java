package io.mover.jobstore;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import io.mover.core.engine.Stage;
import io.mover.core.service.JobId;

import static org.assertj.core.api.Assertions.assertThat;

/** Commits and takeovers from several threads at once, run on each database (see the subclasses). */
abstract class ConcurrentCommitsContract extends StoreFixture {
    @Test
    void concurrentCommitsKeepCountersExact() throws Exception {
        JobId id = newJob();
        int units = 40;
        int filesPerUnit = 25;
        List<NewUnit> cut = new ArrayList<>();
        for (int seq = 0; seq < units; seq++) {
            cut.add(new NewUnit(seq, filesPerUnit, filesPerUnit * 10L, new byte[0]));
        }
        store.addUnits(id, cut);
        int threads = 6;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Integer>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    int committed = 0;
                    for (int seq = thread; seq < units; seq += threads) {
                        List<FileResult> results = new ArrayList<>();
                        for (int f = 0; f < filesPerUnit; f++) {
                            results.add(FileResult.transferred("u" + seq + "/f" + f, 10, f % 5 == 0 ? 2 : 1));
                        }
                        long epoch = store.beginAttempt(id, seq, "node-" + thread).orElseThrow();
                        // half of the units checkpoint first, then commit everything: overlapping records
                        if (seq % 2 == 0) {
                            store.checkpoint(id, seq, epoch, results.subList(0, 10), new StageDelta(Stage.READ, 100, 1, 0, 1));
                        }
                        if (store.commitUnit(id, seq, epoch, results, new StageDelta(Stage.READ, 150, 1, 0, 1))) {
                            committed++;
                        }
                    }
                    return committed;
                }));
            }
            int committed = 0;
            for (Future<Integer> future : done) {
                committed += future.get(60, TimeUnit.SECONDS);
            }
            assertThat(committed).isEqualTo(units);
        }
        finally {
            pool.shutdownNow();
            assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        }
        JobTotals totals = store.get(id).orElseThrow().totals();
        long files = (long) units * filesPerUnit;
        assertThat(totals.filesDone()).isEqualTo(files);
        assertThat(totals.bytesTransferred()).isEqualTo(files * 10);
        assertThat(totals.retries()).isEqualTo(units * 5L);
        assertThat(totals.unitsDone()).isEqualTo(units);
        assertThat(store.unitCounts(Optional.of(id))).isEqualTo(new UnitCounts(0, 0, units, units, 0));
        assertThat(store.stageStats(id)).hasSize(threads).allSatisfy(s -> assertThat(s.stage()).isEqualTo(Stage.READ));
        assertThat(store.stageStats(id).stream().mapToLong(NodeStageStats::bytes).sum()).isEqualTo(units * 150L + units / 2 * 100L);
        try (Stream<String> paths = store.recordedPaths(id)) {
            assertThat(paths.count()).isEqualTo(files);
        }
    }

    @Test
    void aTakeoverRacingACommitLeavesOneWinner() throws Exception {
        JobId id = newJob();
        int rounds = 20;
        List<NewUnit> cut = new ArrayList<>();
        for (int seq = 0; seq < rounds; seq++) {
            cut.add(new NewUnit(seq, 2, 2, new byte[0]));
        }
        store.addUnits(id, cut);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        long committedFiles = 0;
        try {
            for (int seq = 0; seq < rounds; seq++) {
                int unit = seq;
                long epoch = store.beginAttempt(id, unit, "node-a").orElseThrow();
                CyclicBarrier start = new CyclicBarrier(2);
                Future<Boolean> commit = pool.submit(() -> {
                    start.await(10, TimeUnit.SECONDS);
                    return store.commitUnit(id, unit, epoch, List.of(FileResult.transferred("u" + unit + "/a", 1, 1),
                            FileResult.transferred("u" + unit + "/b", 1, 1)));
                });
                Future<OptionalLong> takeover = pool.submit(() -> {
                    start.await(10, TimeUnit.SECONDS);
                    return store.beginAttempt(id, unit, "node-b");
                });
                boolean committed = commit.get(30, TimeUnit.SECONDS);
                OptionalLong newer = takeover.get(30, TimeUnit.SECONDS);
                // either the commit landed first and the unit is DONE, or the takeover did and the commit was refused
                if (committed) {
                    assertThat(newer).as("unit %s", unit).isEmpty();
                    committedFiles += 2;
                }
                else {
                    assertThat(newer).as("unit %s", unit).hasValue(epoch + 1);
                }
            }
        }
        finally {
            pool.shutdownNow();
            assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        }
        JobTotals totals = store.get(id).orElseThrow().totals();
        assertThat(totals.filesDone()).isEqualTo(committedFiles);
        assertThat(totals.unitsDone() * 2).isEqualTo(committedFiles);
        try (Stream<String> paths = store.recordedPaths(id)) {
            assertThat(paths.count()).isEqualTo(committedFiles);
        }
    }
}
