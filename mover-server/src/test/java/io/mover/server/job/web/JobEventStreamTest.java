package io.mover.server.job.web;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import io.mover.core.engine.JobListener;
import io.mover.core.engine.JobSpec;
import io.mover.core.engine.JobState;
import io.mover.core.engine.JobSummary;
import io.mover.core.engine.Progress;
import io.mover.core.engine.TransferOptions;
import io.mover.core.plugin.PluginDescriptor;
import io.mover.core.service.JobId;
import io.mover.core.service.JobService;
import io.mover.core.service.JobView;
import io.mover.server.problem.JobNotFoundException;
import org.junit.jupiter.api.Test;
import org.springframework.http.codec.ServerSentEvent;
import reactor.test.StepVerifier;

import static org.assertj.core.api.Assertions.assertThat;

/** The event stream's contract against a hand-written fake service, with short intervals. */
class JobEventStreamTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final JobId ID = JobId.random();
    private static final JobSpec SPEC = JobSpec.copy("/in", "/out", TransferOptions.defaults());
    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

    private final FakeJobs jobs = new FakeJobs();

    @Test
    void stateThenProgressThenKeepAliveThenTheEnd() {
        jobs.view.set(view(JobState.RUNNING));
        JobEventStream stream = new JobEventStream(jobs, Duration.ofMinutes(1), Duration.ofMillis(100));

        StepVerifier.create(stream.events(ID))
                .assertNext(event -> assertThat(event.event()).isEqualTo("state"))
                .then(() -> jobs.listener().onProgress(progress(JobState.RUNNING)))
                .assertNext(event -> assertThat(event.event()).isEqualTo("progress"))
                .assertNext(event -> assertThat(event.comment()).isEqualTo("keep-alive"))
                .then(() -> {
                    jobs.view.set(view(JobState.SUCCEEDED));
                    jobs.listener().onProgress(progress(JobState.SUCCEEDED));
                })
                .thenConsumeWhile(event -> event.event() == null)
                .assertNext(event -> assertThat(event.event()).isEqualTo("progress"))
                .assertNext(event -> assertThat(state(event)).isEqualTo("SUCCEEDED"))
                .expectComplete()
                .verify(WAIT);
    }

    @Test
    void endsWithATerminalStateEvent() {
        jobs.view.set(view(JobState.RUNNING));
        JobEventStream stream = new JobEventStream(jobs, Duration.ofMinutes(1), Duration.ofMinutes(1));

        StepVerifier.create(stream.events(ID))
                .assertNext(event -> assertThat(event.event()).isEqualTo("state"))
                .then(() -> {
                    jobs.view.set(view(JobState.FAILED));
                    jobs.listener().onProgress(progress(JobState.FAILED));
                })
                .assertNext(event -> assertThat(event.event()).isEqualTo("progress"))
                .assertNext(event -> assertThat(state(event)).isEqualTo("FAILED"))
                .expectComplete()
                .verify(WAIT);
        // the listener is released on the thread that drains the stream, which may finish just after the end
        assertThat(jobs.awaitUnsubscribed()).as("listener released").isTrue();
    }

    @Test
    void aPollSeesStateChangesTheListenerMisses() {
        jobs.view.set(view(JobState.QUEUED));
        JobEventStream stream = new JobEventStream(jobs, Duration.ofMillis(50), Duration.ofMinutes(1));

        StepVerifier.create(stream.events(ID))
                .assertNext(event -> assertThat(state(event)).isEqualTo("QUEUED"))
                .then(() -> jobs.view.set(view(JobState.RUNNING)))
                .assertNext(event -> assertThat(state(event)).isEqualTo("RUNNING"))
                .then(() -> jobs.view.set(view(JobState.CANCELLED)))
                .assertNext(event -> assertThat(event.event()).isEqualTo("progress"))
                .assertNext(event -> assertThat(state(event)).isEqualTo("CANCELLED"))
                .expectComplete()
                .verify(WAIT);
    }

    /** A job that ended between the first read and the subscription sent its last progress to nobody: a poll at once sees the end. */
    @Test
    void aJobThatEndedBeforeTheListenerCameEndsTheStreamWithoutWaitingAnInterval() {
        jobs.view.set(view(JobState.RUNNING));
        jobs.onSubscribe = () -> jobs.view.set(view(JobState.SUCCEEDED));
        JobEventStream stream = new JobEventStream(jobs, Duration.ofMinutes(1), Duration.ofMinutes(1));

        StepVerifier.create(stream.events(ID))
                .assertNext(event -> assertThat(state(event)).isEqualTo("RUNNING"))
                .assertNext(event -> assertThat(event.event()).isEqualTo("progress"))
                .assertNext(event -> assertThat(state(event)).isEqualTo("SUCCEEDED"))
                .expectComplete()
                .verify(WAIT);
    }

    @Test
    void anEndedJobGivesItsLastProgressAndState() {
        jobs.view.set(view(JobState.SUCCEEDED));
        StepVerifier.create(new JobEventStream(jobs, Duration.ofMinutes(1), Duration.ofMinutes(1)).events(ID))
                .assertNext(event -> assertThat(event.event()).isEqualTo("progress"))
                .assertNext(event -> assertThat(state(event)).isEqualTo("SUCCEEDED"))
                .expectComplete()
                .verify(WAIT);
    }

    @Test
    void anUnknownJobIsAnError() {
        StepVerifier.create(new JobEventStream(jobs, Duration.ofMinutes(1), Duration.ofMinutes(1)).events(ID))
                .expectError(JobNotFoundException.class)
                .verify(WAIT);
    }

    private static String state(ServerSentEvent<Object> event) {
        assertThat(event.event()).isEqualTo("state");
        return ((JobResponse) event.data()).state();
    }

    private static JobView view(JobState state) {
        Optional<Progress> progress = state == JobState.QUEUED ? Optional.empty() : Optional.of(progress(state));
        Optional<JobSummary> summary = state.isTerminal()
                ? Optional.of(new JobSummary(state, NOW, Duration.ofSeconds(1), 1, 1, 0, 0, 0, 10, 10, 0, "none", List.of(),
                        Optional.empty(), List.of(), Optional.empty(), Optional.empty()))
                : Optional.empty();
        return new JobView(ID, SPEC, state, NOW, progress, summary);
    }

    private static Progress progress(JobState state) {
        return new Progress(NOW, state, false, 1, 0, 0, 0, 10, 5, 5.0, Duration.ofSeconds(1), Optional.empty(), List.of(),
                Optional.empty());
    }

    /** Holds one job whose view the test sets, and the one listener the stream subscribes. */
    private static final class FakeJobs implements JobService {
        final AtomicReference<JobView> view = new AtomicReference<>();
        final AtomicReference<JobListener> listener = new AtomicReference<>();
        volatile boolean unsubscribed;
        /** What happens as the stream subscribes (the job's end racing the subscription). */
        volatile Runnable onSubscribe = () -> {};

        boolean awaitUnsubscribed() {
            long deadline = System.nanoTime() + WAIT.toNanos();
            for (int i = 0; i < 1000 && !unsubscribed && System.nanoTime() < deadline; i++) {
                try {
                    Thread.sleep(10);
                }
                catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            return unsubscribed;
        }

        /** The stream subscribes once its first event is out: wait for it, boundedly. */
        JobListener listener() {
            long deadline = System.nanoTime() + WAIT.toNanos();
            for (int i = 0; i < 1000 && System.nanoTime() < deadline; i++) {
                if (listener.get() != null) {
                    return listener.get();
                }
                try {
                    Thread.sleep(10);
                }
                catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            throw new AssertionError("the stream did not subscribe to the job");
        }

        @Override
        public JobView submit(JobSpec spec) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Optional<JobView> get(JobId id) {
            return Optional.ofNullable(view.get()).filter(v -> v.id().equals(id));
        }

        @Override
        public List<JobView> list(Optional<JobState> state, int offset, int limit) {
            return List.of();
        }

        @Override
        public JobView cancel(JobId id) {
            throw new UnsupportedOperationException();
        }

        @Override
        public AutoCloseable subscribe(JobId id, JobListener listener) {
            this.listener.set(listener);
            onSubscribe.run();
            return () -> unsubscribed = true;
        }

        @Override
        public Optional<JobSummary> await(JobId id, Duration timeout) {
            return Optional.empty();
        }

        @Override
        public List<PluginDescriptor> plugins() {
            return List.of();
        }

        @Override
        public void close() {}
    }
}
