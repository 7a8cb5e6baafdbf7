package io.mover.jobstore.service;

import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Stream;

import com.github.kagkarlsson.scheduler.task.CompletionHandler;
import com.github.kagkarlsson.scheduler.task.ExecutionContext;
import com.github.kagkarlsson.scheduler.task.TaskInstance;

import io.mover.core.engine.JobSpec;
import io.mover.core.engine.PreparedJob;
import io.mover.core.service.JobId;
import io.mover.jobstore.DesiredState;
import io.mover.jobstore.FileResult;
import io.mover.jobstore.JobError;
import io.mover.jobstore.StoredJob;
import io.mover.spi.Entry;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

/**
 * The unit task: one attempt at one unit. It takes the unit's lease ({@code beginAttempt}), skips files a
 * previous attempt recorded, runs the rest through the engine on another thread, and from this one
 * records outcomes ({@code checkpoint} every {@code checkpointFiles} files or {@code checkpointMillis}),
 * heartbeats the lease, and follows the job's desired state (pause, cancel) at file boundaries. A refused
 * checkpoint or heartbeat means a newer attempt holds the unit: this one stops and records nothing more.
 * The final {@code commitUnit} marks the unit DONE; the last one ends the job.
 */
final class UnitWorker {
    private static final System.Logger LOG = System.getLogger(UnitWorker.class.getName());

    private final Durable durable;
    private final JobFinisher finisher;
    private final int checkpointFiles;
    private final long checkpointMillis;

    UnitWorker(Durable durable, JobFinisher finisher, int checkpointFiles, long checkpointMillis) {
        this.durable = durable;
        this.finisher = finisher;
        this.checkpointFiles = checkpointFiles;
        this.checkpointMillis = checkpointMillis;
    }

    CompletionHandler<Void> execute(TaskInstance<Void> instance, ExecutionContext context) {
        JobId id = Durable.jobOf(instance);
        long seq = Durable.seqOf(instance);
        Optional<StoredJob> found = durable.store.get(id);
        if (found.isEmpty() || found.get().state().isTerminal()) {
            return new CompletionHandler.OnCompleteRemove<>();
        }
        OptionalLong begun = durable.store.beginAttempt(id, seq, durable.nodeId);
        if (begun.isEmpty()) {
            finisher.finishIfDone(id); // done already: a repeated execution; the job may still need ending
            return new CompletionHandler.OnCompleteRemove<>();
        }
        long epoch = begun.getAsLong();
        durable.unitsClaimed.increment();
        if (epoch > 1) {
            durable.unitsRevived.increment();
        }
        UnitAttempt attempt = new UnitAttempt(durable, finisher, checkpointFiles, checkpointMillis, id, seq, epoch);
        if (found.get().desiredState() == DesiredState.CANCELLED) {
            attempt.commit(List.of());
            return new CompletionHandler.OnCompleteRemove<>();
        }
        JobSpec spec;
        boolean singleStream;
        try {
            spec = durable.spec(found.get());
            singleStream = durable.engine.singleStream(spec);
        }
        catch (MoverException e) {
            finisher.fail(id, new JobError(e.code().name(), e.getMessage()));
            return new CompletionHandler.OnCompleteRemove<>();
        }
        if (singleStream && epoch > 1) {
            // an earlier attempt began the archive: a second connection would be a second, partial archive
            return failStream(id, "an earlier attempt of this job was interrupted (the server stopped or crashed) while its stream was sent");
        }
        Optional<byte[]> manifest = durable.store.manifest(id, seq);
        if (manifest.isPresent() && Manifests.isDeletes(manifest.get())) {
            runDeletes(id, seq, epoch, spec, Manifests.decode(manifest.get()));
            return new CompletionHandler.OnCompleteRemove<>();
        }
        // a single stream's unit has no manifest: it crawls the source as it sends (see JobDriver)
        List<Entry> entries = singleStream ? List.of() : manifest.map(Manifests::decode).orElse(List.of());
        List<Entry> todo = epoch > 1 ? notRecorded(id, entries) : entries;
        boolean finished;
        try {
            finished = attempt.run(spec, durable.controls(found.get(), spec), todo, context, singleStream);
        }
        catch (MoverException e) {
            if (singleStream) {
                return failStream(id, e.getMessage());
            }
            if (e.isRetryable()) {
                throw e; // db-scheduler runs the unit again a little later; the next attempt skips what was recorded
            }
            finisher.fail(id, new JobError(e.code().name(), e.getMessage())); // e.g. the source is gone
            return new CompletionHandler.OnCompleteRemove<>();
        }
        if (!finished && singleStream) {
            return failStream(id, "the server stopped while the job's stream was sent");
        }
        if (!finished) {
            // the node is stopping: recorded files stay; the rest runs when the scheduler starts again
            return (complete, operations) -> operations.reschedule(complete, Instant.now());
        }
        return new CompletionHandler.OnCompleteRemove<>();
    }

    /**
     * Ends a single-stream job (a plain tar to nc) that cannot go on: its stream has no resume, and the
     * receiver holds a truncated archive at most (the sender resets the connection instead of ending it).
     */
    private CompletionHandler<Void> failStream(JobId id, String why) {
        finisher.fail(id, new JobError(ErrorCode.PLUGIN_FAILED.name(), why + "; " + STREAM_ADVICE));
        return new CompletionHandler.OnCompleteRemove<>();
    }

    /** What a failed single-stream job's error tells the user to do. */
    static final String STREAM_ADVICE = "a tar stream cannot be resumed: the receiver got a truncated archive at most (discard it),"
            + " and the job must be submitted again to send the whole archive";

    /**
     * A sync's delete unit whose driver did not commit it (the node died): its deletes, each checked
     * against what was listed, recorded in one commit. Entries a previous attempt recorded are skipped.
     */
    private void runDeletes(JobId id, long seq, long epoch, JobSpec spec, List<Entry> entries) {
        List<Entry> todo = notRecorded(id, entries);
        String purpose = "unit-" + seq;
        try (PreparedJob prepared = durable.prepare(id, spec, purpose)) {
            List<FileResult> results = SyncDriver.deleteAll(prepared.sink(), todo, new long[2]);
            if (durable.store.commitUnit(id, seq, epoch, results)) {
                finisher.finishIfDone(id);
            }
        }
        finally {
            durable.deleteScratch(id, purpose);
        }
    }

    /** Entries a previous attempt has not recorded (directories always: creating them again is harmless). */
    private List<Entry> notRecorded(JobId id, List<Entry> entries) {
        Set<String> paths = new HashSet<>();
        entries.forEach(entry -> paths.add(entry.path().toString()));
        Set<String> recorded = new HashSet<>();
        try (Stream<String> stream = durable.store.recordedPaths(id)) {
            stream.filter(paths::contains).forEach(recorded::add);
        }
        return entries.stream().filter(entry -> entry.isDirectory() || !recorded.contains(entry.path().toString())).toList();
    }
}
