package io.mover.server.job.web;

import java.util.List;
import java.util.Map;

import io.mover.core.engine.JobKind;
import io.mover.core.engine.JobSpec;
import io.mover.core.engine.OverwritePolicy;
import io.mover.server.credential.CredentialStore;
import io.mover.server.problem.FieldProblem;
import io.mover.server.problem.InvalidRequestException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

class SubmitJobRequestTest {
    @Test
    void defaultsFillWhatIsNotGiven() {
        JobSpec spec = new SubmitJobRequest("copy", "/in", "/out", null, null, null, null, null).toSpec();
        assertThat(spec.kind()).isEqualTo(JobKind.COPY);
        assertThat(spec.options().concurrency()).isEqualTo(16);
        assertThat(spec.sourceConfig()).isEmpty();
    }

    @Test
    void readsEveryOption() {
        JobOptionsRequest options = new JobOptionsRequest(8, "4MiB", List.of("*.txt"), List.of("tmp/**"), "if-source-newer",
                "preserve", "lz4", true, true, 5, "1s", "64MiB", 100.0, null);
        JobSpec spec = new SubmitJobRequest("COPY", "/in", "/out", options, Map.of("k", "v"), Map.of(), null, null).toSpec();
        assertThat(spec.options().blockSize()).isEqualTo(4 << 20);
        assertThat(spec.options().overwrite()).isEqualTo(OverwritePolicy.IF_SOURCE_NEWER);
        assertThat(spec.options().maxRetries()).isEqualTo(5);
        assertThat(spec.options().bufferPoolBytes()).isEqualTo(64L << 20);
        assertThat(spec.sourceConfig()).containsEntry("k", "v");
        assertThat(spec.options().bandwidthCap()).as("100 Mbps in bytes per second").isEqualTo(12_500_000);
    }

    @Test
    void namesEveryBadField() {
        JobOptionsRequest options = new JobOptionsRequest(2000, "1k", List.of(""), null, "maybe", "sideways", null, null, null, -1,
                "soon", "lots", -3.0, null);
        InvalidRequestException e = catchThrowableOfType(InvalidRequestException.class,
                () -> new SubmitJobRequest(null, " ", "/out", options, null, null, null, null).toSpec());
        assertThat(e.problems()).extracting(FieldProblem::field).containsExactly("kind", "source", "options.concurrency",
                "options.blockSize", "options.include[0]", "options.overwrite", "options.symlinks", "options.retries",
                "options.retryBackoff", "options.bufferPool", "options.bandwidthCapMbps");
        assertThat(e.problems()).allSatisfy(problem -> assertThat(problem.reason()).isNotBlank());
    }

    @Test
    void readsASyncJobsOptionsAndNamesItsBadFields() {
        SyncOptionsRequest sync = new SyncOptionsRequest("true", 100L, "size-only", true, "/lists/files.txt", "1k", "1MiB", "12h", "7d", true);
        JobOptionsRequest options = new JobOptionsRequest(null, null, null, null, null, null, null, null, null, null, null, null, null, sync);
        JobSpec spec = new SubmitJobRequest("sync", "/in", "/out", options, null, null, null, null).toSpec();
        assertThat(spec.kind()).isEqualTo(io.mover.core.engine.JobKind.SYNC);
        io.mover.core.engine.SyncOptions o = spec.options().sync();
        assertThat(o.deletes()).isEqualTo(io.mover.core.engine.SyncOptions.DeleteMode.TRUE);
        assertThat(o.maxDelete()).isEqualTo(100);
        assertThat(o.compare()).isEqualTo(io.mover.core.engine.SyncOptions.ComparePolicy.SIZE_ONLY);
        assertThat(o.minSize()).isEqualTo(1024);
        assertThat(o.maxAge()).contains(java.time.Duration.ofDays(7));
        assertThat(o.catalog()).isTrue();

        SyncOptionsRequest bad = new SyncOptionsRequest("prompt", null, "sometimes", null, null, "huge", null, "soon", null, null);
        JobOptionsRequest badOptions = new JobOptionsRequest(null, null, null, null, null, null, null, null, null, null, null, null, null, bad);
        InvalidRequestException e = catchThrowableOfType(InvalidRequestException.class,
                () -> new SubmitJobRequest("sync", "/in", "/out", badOptions, null, null, null, null).toSpec());
        assertThat(e.problems()).extracting(FieldProblem::field).containsExactly("options.sync.deleteDestination", "options.sync.compare",
                "options.sync.minSize", "options.sync.minAge");
        assertThat(e.problems().getFirst().reason()).contains("use true with maxDelete");
    }

    @Test
    void relationsBetweenOptionsAreChecked() {
        JobOptionsRequest options = new JobOptionsRequest(null, "32MiB", null, null, null, null, null, null, null, null, null, "32MiB", null, null);
        InvalidRequestException e = catchThrowableOfType(InvalidRequestException.class,
                () -> new SubmitJobRequest("copy", "/in", "/out", options, null, null, null, null).toSpec());
        assertThat(e.problems()).extracting(FieldProblem::field).containsExactly("options");
        assertThat(e.problems().getFirst().reason()).contains("buffer pool");
    }

    @Test
    void credentialsAreMergedByNameAndUnknownOrClashingOnesRefused() {
        CredentialStore store = new CredentialStore(Map.of("backup", Map.of("account-key", "s3cr3t", "account", "acme")));
        JobSpec spec = new SubmitJobRequest("copy", "/in", "/out", null, null, Map.of("tier", "cool"), null, "backup").toSpec(store);
        assertThat(spec.destinationConfig()).containsEntry("account-key", "s3cr3t").containsEntry("tier", "cool");
        assertThat(spec.destinationCredential()).contains("backup");
        assertThat(spec.sourceCredential()).isEmpty();
        assertThat(store.toString()).contains("backup").doesNotContain("s3cr3t");

        InvalidRequestException e = catchThrowableOfType(InvalidRequestException.class, () -> new SubmitJobRequest("copy", "/in", "/out",
                null, null, Map.of("account", "other"), "nope", "backup").toSpec(store));
        assertThat(e.problems()).extracting(FieldProblem::field).containsExactly("sourceCredential", "destinationConfig.account");
        assertThat(e.problems().getFirst().reason()).contains("unknown credential 'nope'", "backup");
        assertThat(e.getMessage()).doesNotContain("s3cr3t");
    }

    @Test
    void aPatchNamesEveryBadField() {
        assertThat(JobPatchRequest.parse(Map.of("concurrency", 8, "bandwidthCapMbps", 100)).bandwidthCapBytesPerSecond()).contains(12_500_000L);
        java.util.HashMap<String, Object> lift = new java.util.HashMap<>();
        lift.put("bandwidthCapMbps", null);
        assertThat(JobPatchRequest.parse(lift).bandwidthCapBytesPerSecond()).as("null removes the cap").contains(0L);
        assertThat(JobPatchRequest.parse(Map.of()).concurrency()).isEmpty();
        InvalidRequestException e = catchThrowableOfType(InvalidRequestException.class,
                () -> JobPatchRequest.parse(Map.of("concurrency", 1.5, "bandwidthCapMbps", -1, "colour", "red")));
        assertThat(e.problems()).extracting(FieldProblem::field).containsExactlyInAnyOrder("colour", "concurrency", "bandwidthCapMbps");
    }
}
