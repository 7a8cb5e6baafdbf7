package io.mover.jobstore.service;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.BooleanSupplier;

import io.mover.core.engine.PreparedJob;
import io.mover.core.engine.SyncPlan;
import io.mover.core.engine.SyncReport;
import io.mover.core.service.JobId;
import io.mover.jobstore.FileOutcome;
import io.mover.jobstore.FileResult;
import io.mover.jobstore.NewUnit;
import io.mover.spi.Entry;
import io.mover.spi.MoverException;
import io.mover.spi.Sink;

/**
 * The driver's part of a sync job: lists and compares both sides ({@link SyncPlan}; the guards throw
 * before anything is changed), then runs the deletes itself, in the plan's order (files before their
 * folders), as units it holds and commits, so every deletion is recorded exactly once like a copied
 * file; sets modes and times of unchanged files; and only then cuts the copies (and the folders whose
 * times are to be set) into ordinary units. A killed driver's delete units are run by unit tasks
 * ({@link UnitWorker}) from their manifests. A driver run again after a crash plans again: what was
 * copied or deleted is then unchanged or gone, and files of copy units already stored may be copied a
 * second time (atomically, and recorded once).
 */
final class SyncDriver {
    private final Durable durable;

    SyncDriver(Durable durable) {
        this.durable = durable;
    }

    /** Plans and deletes, then hands the copies to {@code cutter}; false when the node is stopping. */
    boolean drive(JobId id, PreparedJob job, long firstSeq, UnitCutter cutter, BooleanSupplier nodeStopping, BooleanSupplier cancelled) {
        BooleanSupplier stopping = () -> nodeStopping.getAsBoolean() || cancelled.getAsBoolean();
        List<FileResult> failures = new ArrayList<>();
        SyncPlan.Listener listener = (path, error) -> failures.add(FileResult.failed(path.toString(), error.code().name(), error.getMessage(), 1));
        try (SyncPlan plan = durable.engine.planSync(job, stopping, listener)) {
            if (stopping.getAsBoolean()) {
                // a cancelled job is done cutting; a stopping node's driver plans again when it runs next
                return !nodeStopping.getAsBoolean();
            }
            long seq = firstSeq;
            long[] counts = new long[2];
            List<Entry> batch = new ArrayList<>();
            // only an explicit true deletes here: nobody can answer a prompt on the server. A dry run records what it
            // would delete (GET /jobs/{id}/files?outcome=deleted), as it records what it would copy
            if (job.options().sync().deletes() == io.mover.core.engine.SyncOptions.DeleteMode.TRUE) {
                for (Entry entry : plan.deletes()) {
                    batch.add(entry);
                    if (batch.size() == UnitCutter.MAX_ENTRIES) {
                        seq = runDeleteUnit(id, seq, job.sink(), batch, List.of(), counts);
                        batch.clear();
                    }
                }
            }
            if (!batch.isEmpty() || !failures.isEmpty()) {
                seq = runDeleteUnit(id, seq, job.sink(), batch, failures, counts);
            }
            plan.deleted(counts[0], counts[1]);
            if (job.sink().isPresent()) {
                for (Entry entry : plan.attributes()) {
                    job.sink().get().setAttributes(entry.path(), entry);
                    plan.attributesUpdated();
                }
            }
            cutter.skipTo(seq);
            plan.copies().forEach(cutter::add);
            plan.directoryTimes().forEach(cutter::add);
            cutter.flush();
            durable.store.recordSync(id, toJson(plan.report()));
            return true;
        }
    }

    /** One unit of deletes, held and committed by the driver; {@code counts}: files deleted, entries kept because they changed. */
    private long runDeleteUnit(JobId id, long seq, Optional<Sink> sink, List<Entry> entries, List<FileResult> failures, long[] counts) {
        durable.store.addUnits(id, List.of(new NewUnit(seq, 0, 0, Manifests.encodeDeletes(entries))));
        OptionalLong epoch = durable.store.beginAttempt(id, seq, durable.nodeId);
        if (epoch.isEmpty()) {
            return seq + 1; // done already by an earlier driver
        }
        List<FileResult> results = new ArrayList<>(failures);
        results.addAll(deleteAll(sink, entries, counts));
        durable.store.commitUnit(id, seq, epoch.getAsLong(), results);
        return seq + 1;
    }

    /**
     * Deletes each entry checked against what was listed, and says how each ended; without a sink (a dry run) each is
     * recorded as what would be deleted, and nothing is.
     */
    static List<FileResult> deleteAll(Optional<Sink> sink, List<Entry> entries, long[] counts) {
        List<FileResult> results = new ArrayList<>();
        for (Entry entry : entries) {
            String path = entry.path().toString();
            if (sink.isEmpty()) {
                results.add(new FileResult(path, FileOutcome.DELETED, 0, 1, Optional.empty(), Optional.of("dry run: would delete")));
                continue;
            }
            try {
                switch (SyncPlan.deleteChecked(sink.get(), entry)) {
                    case DELETED -> {
                        counts[0] += entry.isDirectory() ? 0 : 1;
                        results.add(new FileResult(path, FileOutcome.DELETED, 0, 1, Optional.empty(), Optional.empty()));
                    }
                    case GONE -> results.add(new FileResult(path, FileOutcome.DELETED, 0, 1, Optional.empty(), Optional.of("already gone")));
                    case CHANGED -> {
                        counts[1]++;
                        results.add(FileResult.skipped(path, "changed at the destination after it was listed; kept"));
                    }
                }
            }
            catch (MoverException e) {
                results.add(FileResult.failed(path, e.code().name(), e.getMessage(), 1));
            }
        }
        return results;
    }

    static String toJson(SyncReport r) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("sourceFiles", r.sourceFiles());
        json.put("destinationFiles", r.destinationFiles());
        json.put("unchanged", r.unchanged());
        json.put("toCopy", r.toCopy());
        json.put("bytesToCopy", r.bytesToCopy());
        json.put("toDelete", r.toDelete());
        json.put("deleted", r.deleted());
        json.put("attributesUpdated", r.attributesUpdated());
        json.put("compareNanos", r.compare().toNanos());
        json.put("warnings", r.warnings());
        return Json.write(json);
    }

    @SuppressWarnings("unchecked")
    static SyncReport fromJson(String text) {
        Map<String, Object> json = (Map<String, Object>) Json.parse(text);
        return new SyncReport(number(json, "sourceFiles"), number(json, "destinationFiles"), number(json, "unchanged"), number(json, "toCopy"),
                number(json, "bytesToCopy"), number(json, "toDelete"), number(json, "deleted"), number(json, "attributesUpdated"),
                Duration.ofNanos(number(json, "compareNanos")), false, (List<String>) json.get("warnings"));
    }

    private static long number(Map<String, Object> json, String key) {
        return (Long) json.get(key);
    }
}
