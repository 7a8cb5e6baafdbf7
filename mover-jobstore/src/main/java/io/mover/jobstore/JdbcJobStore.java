package io.mover.jobstore;

import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Stream;

import javax.sql.DataSource;

import io.mover.core.engine.JobKind;
import io.mover.core.engine.JobPhase;
import io.mover.core.engine.JobState;
import io.mover.core.service.JobId;

import static java.util.Objects.requireNonNull;

/**
 * The job store on JDBC, one class per concern: job rows in {@link JobTable}, node rows in {@link NodeTable}, unit commits in
 * {@link UnitTable}, their reads in {@link UnitReads}, a bench's phase and report in {@link JobReports}, plugin counters in
 * {@link PluginCounterRows}.
 * Portable SQL only (PostgreSQL, and H2 in PostgreSQL mode); the schema is Flyway's V1.
 */
public final class JdbcJobStore implements JobStore {
    /** Paths per query of {@link #recordedPaths}: large enough to stream fast, small enough to hold. */
    static final int RECORDED_PATHS_PAGE = 10_000;

    private final JobTable jobs;
    private final NodeTable nodes;
    private final UnitTable units;
    private final UnitReads reads;
    private final JobReports reports;
    private final PluginCounterRows pluginCounters;

    /** A store on a migrated database (see {@link JobStores#open}). */
    public JdbcJobStore(DataSource dataSource, Clock clock) {
        this(dataSource, clock, RECORDED_PATHS_PAGE);
    }

    JdbcJobStore(DataSource dataSource, Clock clock, int recordedPathsPage) {
        Jdbc jdbc = new Jdbc(requireNonNull(dataSource, "dataSource is null"));
        requireNonNull(clock, "clock is null");
        this.jobs = new JobTable(jdbc, clock);
        this.nodes = new NodeTable(jdbc, clock);
        this.units = new UnitTable(jdbc, clock);
        this.reads = new UnitReads(jdbc, recordedPathsPage);
        this.reports = new JobReports(jdbc);
        this.pluginCounters = new PluginCounterRows(jdbc);
    }

    @Override
    public StoredJob create(NewJob job) {
        return jobs.create(job);
    }

    @Override
    public Optional<StoredJob> get(JobId id) {
        return jobs.get(id);
    }

    @Override
    public List<StoredJob> list(Optional<JobState> state, Optional<JobKind> kind, int offset, int limit) {
        return jobs.list(state, kind, offset, limit);
    }

    @Override
    public List<StoredJob> listBySchedule(String scheduleId, Optional<JobState> state, int offset, int limit) {
        return jobs.listBySchedule(scheduleId, state, offset, limit);
    }

    @Override
    public boolean setDesiredState(JobId id, DesiredState desired) {
        return jobs.setDesiredState(id, desired);
    }

    @Override
    public boolean updateSpec(JobId id, String specJson) {
        return jobs.updateSpec(id, specJson);
    }

    @Override
    public boolean transition(JobId id, JobState to, Optional<JobError> error) {
        return jobs.transition(id, to, error);
    }

    @Override
    public void addScanned(JobId id, long files, long bytes) {
        jobs.addScanned(id, files, bytes);
    }

    @Override
    public void markEnumerationDone(JobId id) {
        jobs.markEnumerationDone(id);
    }

    @Override
    public void recordSync(JobId id, String syncJson) {
        jobs.recordSync(id, syncJson);
    }

    @Override
    public void recordPhase(JobId id, JobPhase phase) {
        reports.recordPhase(id, phase);
    }

    @Override
    public void recordReport(JobId id, String reportJson) {
        reports.recordReport(id, reportJson);
    }

    @Override
    public Optional<String> report(JobId id) {
        return reports.report(id);
    }

    @Override
    public void recordCodec(JobId id, String description) {
        reports.recordCodec(id, description);
    }

    @Override
    public void addPluginCounters(JobId id, java.util.Map<String, Long> counters) {
        pluginCounters.add(id, counters);
    }

    @Override
    public java.util.Map<String, Long> pluginCounters(JobId id) {
        return pluginCounters.read(id);
    }

    @Override
    public int addUnits(JobId id, List<NewUnit> newUnits) {
        return units.add(id, newUnits);
    }

    @Override
    public OptionalLong beginAttempt(JobId id, long seq, String nodeId) {
        return units.beginAttempt(id, seq, nodeId);
    }

    @Override
    public boolean heartbeat(JobId id, long seq, long epoch) {
        return units.heartbeat(id, seq, epoch);
    }

    @Override
    public boolean commitUnit(JobId id, long seq, long epoch, List<FileResult> results, StageDelta... stages) {
        return units.commit(id, seq, epoch, results, List.of(stages), true);
    }

    @Override
    public boolean checkpoint(JobId id, long seq, long epoch, List<FileResult> results, StageDelta... stages) {
        return units.commit(id, seq, epoch, results, List.of(stages), false);
    }

    @Override
    public Stream<String> recordedPaths(JobId id) {
        return reads.recordedPaths(id);
    }

    @Override
    public List<RecordedFile> files(JobId id, Optional<FileOutcome> outcome, Optional<String> afterPath, int limit) {
        return reads.files(id, outcome, afterPath, limit);
    }

    @Override
    public List<UnitInfo> unfinishedUnits(JobId id) {
        return reads.unfinished(id);
    }

    @Override
    public Optional<byte[]> manifest(JobId id, long seq) {
        return reads.manifest(id, seq);
    }

    @Override
    public long count(JobState state) {
        return jobs.count(state);
    }

    @Override
    public UnitCounts unitCounts(Optional<JobId> id) {
        return reads.counts(id);
    }

    @Override
    public List<NodeStageStats> stageStats(JobId id) {
        return reads.stageStats(id);
    }

    @Override
    public void registerNode(String nodeId, String host) {
        nodes.register(nodeId, host);
    }

    @Override
    public void nodeHeartbeat(String nodeId) {
        nodes.heartbeat(nodeId);
    }

    @Override
    public List<NodeInfo> nodes() {
        return nodes.list();
    }
}
