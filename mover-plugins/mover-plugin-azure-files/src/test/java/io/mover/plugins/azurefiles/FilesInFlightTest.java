package io.mover.plugins.azurefiles;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;

import io.mover.spi.FilesInFlight;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The sink suggests as many files in flight as the share admits requests (SPI FilesInFlight), for jobs with no --concurrency. */
@Timeout(60)
final class FilesInFlightTest {
    @TempDir
    Path scratch;

    @Test
    void theSinkSuggestsTheRequestsItAdmits() {
        TestService.get().share(TestService.ACCOUNT, "inflight");
        try (AzureFilesSink sink = TestService.sink(TestService.ACCOUNT, "inflight", Map.of(), TestService.context(scratch, "job1"))) {
            assertThat(sink).isInstanceOf(FilesInFlight.class);
            assertThat(sink.filesInFlight()).isEqualTo(64);
        }
        try (AzureFilesSink sink = TestService.sink(TestService.ACCOUNT, "inflight", Map.of("max-concurrency", "24"),
                TestService.context(scratch, "job2"))) {
            assertThat(sink.filesInFlight()).isEqualTo(24);
        }
    }
}
