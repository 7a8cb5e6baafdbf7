package io.mover.jobstore;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Stream;

import io.mover.core.engine.JobKind;
import io.mover.core.engine.JobPhase;
import io.mover.core.engine.JobState;
import io.mover.core.service.JobId;

/**
 * The durable record of jobs, their work units and the outcome of each file, shared by the movers of a
 * cluster. Thread-safe. Each method is one transaction. Failures of the database surface as
 * {@link io.mover.spi.MoverException} with code IO_ERROR; an unknown job as NOT_FOUND.
 *
 * <p>Exactly once per file: a unit is run at least once (db-scheduler revives a dead node's units), but
 * each attempt holds a lease epoch from {@link #beginAttempt}, and {@link #commitUnit} records the files
 * and adds them to the job's counters in one transaction that fails when a newer attempt exists, and
 * records only files not recorded yet. See docs/job-store.md.
 */
public interface JobStore {
    /** Creates a QUEUED job whose desired state is RUNNING. */
    StoredJob create(NewJob job);

    Optional<StoredJob> get(JobId id);

    /** Jobs, newest first, only those in {@code state} when given. */
    default List<StoredJob> list(Optional<JobState> state, int offset, int limit) {
        return list(state, Optional.empty(), offset, limit);
    }

    /** Jobs, newest first, only those in {@code state} and of {@code kind} when given. */
    List<StoredJob> list(Optional<JobState> state, Optional<JobKind> kind, int offset, int limit);

    /** Jobs the schedule {@code scheduleId} started, newest first, only those in {@code state} when given. */
    List<StoredJob> listBySchedule(String scheduleId, Optional<JobState> state, int offset, int limit);

    /**
     * How many jobs are in {@code state}, by one indexed count. PAUSED is what the user asked of a job not ended
     * (its files in flight may still be finishing); QUEUED and RUNNING count the others.
     */
    long count(JobState state);

    /** Records what the user asked for. False when the job already ended (nothing changes then). */
    boolean setDesiredState(JobId id, DesiredState desired);

    /** Replaces the stored spec of a job not ended (its settings changed while it runs); false when it has ended. */
    boolean updateSpec(JobId id, String specJson);

    /**
     * Moves the job to {@code to}: sets {@code started} at the first RUNNING and {@code ended} at a
     * terminal state, with {@code error} when given. False when the job already ended: a terminal state is final.
     */
    boolean transition(JobId id, JobState to, Optional<JobError> error);

    /** Adds the driver's count of scanned files and bytes. */
    void addScanned(JobId id, long files, long bytes);

    /** Marks that the driver has cut the last unit. */
    void markEnumerationDone(JobId id);

    /** Keeps a sync job's report (SyncReport as JSON), written by its driver once the plan is made and its deletes done. */
    void recordSync(JobId id, String syncJson);

    /** Records what a job that runs in steps (a bench) is doing: the step in words, the steps done before it, all of them. */
    void recordPhase(JobId id, JobPhase phase);

    /** Keeps a job's report (a bench's, as JSON); large reports are fine (a text column). */
    void recordReport(JobId id, String reportJson);

    /** The job's report, once recorded. NOT_FOUND when there is no such job. */
    Optional<String> report(JobId id);

    /**
     * Keeps what carries a unit's blocks (its run's codec description: with auto, the blocks' shares and the last
     * choice's reason), recorded as the unit runs and when it ends; the last recorded wins, read as {@link StoredJob#codec}.
     * NOT_FOUND when there is no such job.
     */
    void recordCodec(JobId id, String description);

    /**
     * Adds what the endpoints' plugins counted (PluginCounters, by side and name) to the job's totals: a unit's
     * attempt or the driver's listing, each once when it ends. NOT_FOUND when there is no such job.
     */
    void addPluginCounters(JobId id, java.util.Map<String, Long> counters);

    /** The job's plugin counters so far, sorted by name; empty when no plugin counted anything. */
    java.util.Map<String, Long> pluginCounters(JobId id);

    /**
     * Adds PENDING units in one batch, as the driver cuts them. A seq already present is left as it is
     * (a driver that runs again re-adds its units harmlessly); returns how many were new.
     */
    int addUnits(JobId id, List<NewUnit> units);

    /**
     * Begins an attempt at a unit on {@code nodeId}: increments its epoch, makes it RUNNING with a fresh
     * heartbeat, and returns the new epoch, which the attempt passes to its heartbeats and commit. Empty
     * when the unit is DONE (an execution that runs again has nothing to do) or does not exist.
     */
    OptionalLong beginAttempt(JobId id, long seq, String nodeId);

    /** Refreshes the attempt's heartbeat. False when a newer attempt holds the unit: stop working on it. */
    boolean heartbeat(JobId id, long seq, long epoch);

    /**
     * Commits a unit, in one transaction: when its epoch is still {@code epoch}, records each file not
     * recorded yet, adds those (and only those) to the job's counters, adds the stage figures under the
     * unit's owner and marks the unit DONE. Returns false and changes nothing when a newer attempt
     * holds the unit. Committing again with the same epoch counts nothing twice.
     */
    boolean commitUnit(JobId id, long seq, long epoch, List<FileResult> results, StageDelta... stages);

    /**
     * Like {@link #commitUnit} but leaves the unit RUNNING: a long unit records its finished files as it
     * goes, so an attempt that takes over redoes less.
     */
    boolean checkpoint(JobId id, long seq, long epoch, List<FileResult> results, StageDelta... stages);

    /**
     * The paths recorded for a job, in path order, read page by page as the stream is consumed (a job may
     * have millions): what a resumed job skips. Close the stream when stopping early.
     */
    Stream<String> recordedPaths(JobId id);

    /** Recorded files of a job in path order after {@code afterPath} (keyset paging), only {@code outcome} when given. */
    List<RecordedFile> files(JobId id, Optional<FileOutcome> outcome, Optional<String> afterPath, int limit);

    /** Units of a job that are not DONE, by seq. */
    List<UnitInfo> unfinishedUnits(JobId id);

    /** A unit's manifest, as added. */
    Optional<byte[]> manifest(JobId id, long seq);

    /** Units by state and claims, of one job when given, else of all jobs. */
    UnitCounts unitCounts(Optional<JobId> id);

    /** Per node and stage figures of a job. */
    List<NodeStageStats> stageStats(JobId id);

    /** Records that a node started (again). */
    void registerNode(String nodeId, String host);

    /** Refreshes a node's heartbeat. */
    void nodeHeartbeat(String nodeId);

    List<NodeInfo> nodes();
}
