package io.mover.server.job.web;

import java.util.List;
import java.util.Map;

import io.mover.core.engine.JobKind;
import io.mover.core.engine.JobSpec;
import io.mover.core.engine.OverwritePolicy;
import io.mover.server.problem.FieldProblem;
import io.mover.server.problem.InvalidRequestException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

class SubmitJobRequestTest {
    @Test
    void defaultsFillWhatIsNotGiven() {
        JobSpec spec = new SubmitJobRequest("copy", "/in", "/out", null, null, null).toSpec();
        assertThat(spec.kind()).isEqualTo(JobKind.COPY);
        assertThat(spec.options().concurrency()).isEqualTo(16);
        assertThat(spec.sourceConfig()).isEmpty();
    }

    @Test
    void readsEveryOption() {
        JobOptionsRequest options = new JobOptionsRequest(8, "4MiB", List.of("*.txt"), List.of("tmp/**"), "if-source-newer",
                "preserve", "lz4", true, true, 5, "1s", "64MiB");
        JobSpec spec = new SubmitJobRequest("COPY", "/in", "/out", options, Map.of("k", "v"), Map.of()).toSpec();
        assertThat(spec.options().blockSize()).isEqualTo(4 << 20);
        assertThat(spec.options().overwrite()).isEqualTo(OverwritePolicy.IF_SOURCE_NEWER);
        assertThat(spec.options().maxRetries()).isEqualTo(5);
        assertThat(spec.options().bufferPoolBytes()).isEqualTo(64L << 20);
        assertThat(spec.sourceConfig()).containsEntry("k", "v");
    }

    @Test
    void namesEveryBadField() {
        JobOptionsRequest options = new JobOptionsRequest(2000, "1k", List.of(""), null, "maybe", "sideways", null, null, null, -1,
                "soon", "lots");
        InvalidRequestException e = catchThrowableOfType(InvalidRequestException.class,
                () -> new SubmitJobRequest(null, " ", "/out", options, null, null).toSpec());
        assertThat(e.problems()).extracting(FieldProblem::field).containsExactly("kind", "source", "options.concurrency",
                "options.blockSize", "options.include[0]", "options.overwrite", "options.symlinks", "options.retries",
                "options.retryBackoff", "options.bufferPool");
        assertThat(e.problems()).allSatisfy(problem -> assertThat(problem.reason()).isNotBlank());
    }

    @Test
    void relationsBetweenOptionsAreChecked() {
        JobOptionsRequest options = new JobOptionsRequest(null, "32MiB", null, null, null, null, null, null, null, null, null, "32MiB");
        InvalidRequestException e = catchThrowableOfType(InvalidRequestException.class,
                () -> new SubmitJobRequest("copy", "/in", "/out", options, null, null).toSpec());
        assertThat(e.problems()).extracting(FieldProblem::field).containsExactly("options");
        assertThat(e.problems().getFirst().reason()).contains("buffer pool");
    }
}
