package io.mover.cli;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import io.mover.core.engine.FileFailure;
import io.mover.core.engine.JobState;
import io.mover.core.engine.JobSummary;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ExitCodeTest {
    @Test
    void errorsMapByCategory() {
        assertThat(ExitCode.of(new MoverException(ErrorCode.INVALID_ARGUMENT, "x")).code()).isEqualTo(1);
        assertThat(ExitCode.of(ErrorCode.UNKNOWN_SCHEME).code()).isEqualTo(1);
        assertThat(ExitCode.of(ErrorCode.NOT_FOUND).code()).isEqualTo(3);
        assertThat(ExitCode.of(ErrorCode.NO_SPACE).code()).isEqualTo(5);
        assertThat(ExitCode.of(ErrorCode.AUTHENTICATION_FAILED).code()).isEqualTo(7);
        assertThat(ExitCode.of(ErrorCode.IO_ERROR).code()).isEqualTo(7);
        assertThat(ExitCode.of(ErrorCode.CANCELLED).code()).isEqualTo(130);
    }

    @Test
    void jobsMapByHowTheyEnded() {
        assertThat(ExitCode.of(summary(JobState.SUCCEEDED, List.of())).code()).isZero();
        assertThat(ExitCode.of(summary(JobState.COMPLETED_WITH_ERRORS, List.of(failure(ErrorCode.IO_ERROR)))).code()).isEqualTo(2);
        assertThat(ExitCode.of(summary(JobState.CANCELLED, List.of())).code()).isEqualTo(130);
        assertThat(ExitCode.of(summary(JobState.FAILED, List.of(failure(ErrorCode.IO_ERROR), failure(ErrorCode.NO_SPACE)))).code()).isEqualTo(5);
        assertThat(ExitCode.of(summary(JobState.FAILED, List.of())).code()).isEqualTo(7);
    }

    private static FileFailure failure(ErrorCode code) {
        return new FileFailure("a/b", code, "it broke", 1);
    }

    private static JobSummary summary(JobState state, List<FileFailure> failures) {
        return new JobSummary(state, Instant.EPOCH, Duration.ofSeconds(1), 1, 1, 0, failures.size(), 0, 0, 0, 0, "none", List.of(),
                Optional.empty(), failures, Optional.empty(), failures.stream().map(FileFailure::code)
                        .filter(code -> code.category() == io.mover.spi.ErrorCategory.FATAL).findFirst());
    }
}
