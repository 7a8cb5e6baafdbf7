package io.mover.core.service;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.mover.core.engine.JobSpec;
import io.mover.core.engine.JobState;
import io.mover.core.engine.MemoryPlugin;
import io.mover.core.engine.MemoryStore;
import io.mover.core.engine.JobSummary;
import io.mover.core.engine.Progress;
import io.mover.core.engine.TransferOptions;
import io.mover.core.plugin.PluginRegistry;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The façade over the in-memory plugin of the engine tests. */
@Timeout(60)
class EmbeddedJobServiceTest {
    @TempDir
    Path dir;

    private EmbeddedJobService service;

    private final MemoryPlugin plugin = new MemoryPlugin();
    private final MemoryStore src = plugin.store("src");

    private EmbeddedJobService service() {
        service = new EmbeddedJobService(PluginRegistry.of(List.of(plugin), "test"), dir.resolve("scratch"), Clock.systemUTC(), 2);
        return service;
    }

    @AfterEach
    void close() {
        if (service != null) {
            service.close();
        }
    }

    private JobSpec copy(String from, String to) {
        return JobSpec.copy("mem://" + from, "mem://" + to,
                TransferOptions.builder().progressInterval(Duration.ofMillis(20)).build());
    }

    @Test
    void submitRunsAJobThatCanBeAwaitedListedAndWatched() throws Exception {
        src.file("sub/a.txt", "alpha".getBytes(StandardCharsets.UTF_8), Instant.EPOCH);
        EmbeddedJobService jobs = service();

        JobView view = jobs.submit(copy("src", "dst"));
        List<Progress> seen = new CopyOnWriteArrayList<>();
        try (AutoCloseable subscription = jobs.subscribe(view.id(), seen::add)) {
            Optional<JobSummary> summary = jobs.await(view.id(), Duration.ofSeconds(30));

            assertThat(summary).hasValueSatisfying(s -> assertThat(s.state()).isEqualTo(JobState.SUCCEEDED));
        }
        assertThat(plugin.store("dst").data("sub/a.txt")).isEqualTo("alpha".getBytes(StandardCharsets.UTF_8));
        assertThat(seen).isNotEmpty();
        assertThat(seen.getLast().state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(jobs.get(view.id())).hasValueSatisfying(v -> {
            assertThat(v.state()).isEqualTo(JobState.SUCCEEDED);
            assertThat(v.summary()).isPresent();
        });
        assertThat(jobs.list(Optional.of(JobState.SUCCEEDED), 0, 10)).extracting(JobView::id).containsExactly(view.id());
        assertThat(jobs.list(Optional.of(JobState.FAILED), 0, 10)).isEmpty();
        assertThat(Files.list(dir.resolve("scratch")).toList()).as("per-job scratch removed").isEmpty();
    }

    @Test
    void aLateSubscriberGetsTheTerminalProgress() throws Exception {
        EmbeddedJobService jobs = service();
        JobView view = jobs.submit(copy("src", "dst"));
        jobs.await(view.id(), Duration.ofSeconds(30));

        List<Progress> seen = new CopyOnWriteArrayList<>();
        jobs.subscribe(view.id(), seen::add).close();

        assertThat(seen).singleElement().satisfies(p -> assertThat(p.state()).isEqualTo(JobState.SUCCEEDED));
    }

    @Test
    void userErrorsAreThrownAtSubmitAndNoJobIsCreated() {
        EmbeddedJobService jobs = service();
        assertThatThrownBy(() -> jobs.submit(copy("missing", "dst")))
                .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND));
        assertThat(jobs.list(Optional.empty(), 0, 10)).isEmpty();
    }

    @Test
    void cancellingAnUnknownJobIsNotFound() {
        EmbeddedJobService jobs = service();
        assertThatThrownBy(() -> jobs.cancel(JobId.random()))
                .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND));
    }
}
