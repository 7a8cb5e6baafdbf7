package io.mover.server.job.web;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import io.mover.core.engine.JobState;
import io.mover.core.engine.Progress;
import io.mover.core.service.JobId;
import io.mover.core.service.JobService;
import io.mover.core.service.JobView;
import io.mover.server.problem.JobNotFoundException;
import org.springframework.http.codec.ServerSentEvent;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;
import reactor.core.scheduler.Schedulers;

import static java.util.Objects.requireNonNull;

/**
 * A job's Server-Sent Events. The contract (docs/rest.md):
 * <ol>
 *   <li>a {@code state} event with the whole job first, and again on every change of state;</li>
 *   <li>a {@code progress} event each time the engine reports (every 2 s) and once at the end;</li>
 *   <li>a {@code keep-alive} comment every 15 s, so proxies keep the connection open;</li>
 *   <li>the stream completes right after the {@code state} event that carries a terminal state.</li>
 * </ol>
 * Progress comes from the service's listener; a poll at the progress interval catches state changes
 * the listener does not report (queued to running, or an end without any progress).
 */
public final class JobEventStream {
    public static final String STATE = "state";
    public static final String PROGRESS = "progress";

    private final JobService jobs;
    private final Duration pollInterval;
    private final Duration keepAliveInterval;

    public JobEventStream(JobService jobs, Duration pollInterval, Duration keepAliveInterval) {
        this.jobs = requireNonNull(jobs, "jobs is null");
        this.pollInterval = requireNonNull(pollInterval, "pollInterval is null");
        this.keepAliveInterval = requireNonNull(keepAliveInterval, "keepAliveInterval is null");
    }

    /** The events of job {@code id}; fails with {@link JobNotFoundException} when there is no such job. */
    public Flux<ServerSentEvent<Object>> events(JobId id) {
        return Flux.defer(() -> {
            JobView initial = jobs.get(id).orElseThrow(() -> new JobNotFoundException(id.value()));
            if (initial.state().isTerminal()) {
                return Flux.fromIterable(ended(initial));
            }
            AtomicReference<JobState> lastState = new AtomicReference<>(initial.state());
            Flux<Object> fromListener = Flux.<Object>create(sink -> listen(id, sink))
                    // a slow client gets the latest progress, not an unbounded backlog
                    .onBackpressureLatest();
            // the first poll at once, after the listener is in place: a job that ended since the initial read
            // (its last progress sent before anyone listened) is seen now, not an interval later
            Flux<Object> fromPoll = Flux.interval(Duration.ZERO, pollInterval).onBackpressureDrop().map(tick -> (Object) tick);
            Flux<ServerSentEvent<Object>> jobEvents = Flux.merge(fromListener, fromPoll)
                    // off the engine's ticker thread (a durable store's get() may block), and one signal at a
                    // time, so lastState is read and written in order
                    .publishOn(Schedulers.boundedElastic())
                    .concatMapIterable(signal -> signal instanceof Progress progress
                            ? onProgress(id, progress, lastState)
                            : onPoll(id, lastState))
                    .takeUntil(JobEventStream::isEnd);
            Flux<ServerSentEvent<Object>> keepAlive = Flux.interval(keepAliveInterval)
                    .onBackpressureDrop()
                    .map(tick -> ServerSentEvent.builder().comment("keep-alive").build());
            return Flux.concat(Flux.just(stateEvent(initial)), Flux.merge(jobEvents, keepAlive).takeUntil(JobEventStream::isEnd));
        }).subscribeOn(Schedulers.boundedElastic());
    }

    private void listen(JobId id, FluxSink<Object> sink) {
        AutoCloseable handle = jobs.subscribe(id, sink::next);
        sink.onDispose(() -> {
            try {
                handle.close();
            }
            catch (Exception e) {
                // nothing to clean up beyond the listener itself; the stream is over anyway
            }
        });
    }

    private List<ServerSentEvent<Object>> onProgress(JobId id, Progress progress, AtomicReference<JobState> lastState) {
        ServerSentEvent<Object> progressEvent = progressEvent(progress);
        if (progress.state().isTerminal()) {
            JobView view = jobs.get(id).orElse(null);
            if (view != null && view.state().isTerminal()) {
                lastState.set(view.state());
                return List.of(progressEvent, stateEvent(view));
            }
            return List.of(progressEvent);
        }
        if (progress.state() != lastState.getAndSet(progress.state())) {
            return jobs.get(id).map(view -> List.of(stateEvent(view), progressEvent)).orElse(List.of(progressEvent));
        }
        return List.of(progressEvent);
    }

    private List<ServerSentEvent<Object>> onPoll(JobId id, AtomicReference<JobState> lastState) {
        JobView view = jobs.get(id).orElse(null);
        if (view == null) {
            // forgotten while watched (evicted): end the stream rather than leave it open forever
            return List.of(ServerSentEvent.builder().event(STATE).comment("job forgotten").data((Object) "GONE").build());
        }
        if (view.state() == lastState.getAndSet(view.state())) {
            return List.of();
        }
        return view.state().isTerminal() ? ended(view) : List.of(stateEvent(view));
    }

    private static List<ServerSentEvent<Object>> ended(JobView view) {
        return view.progress().map(p -> List.of(progressEvent(p), stateEvent(view))).orElseGet(() -> List.of(stateEvent(view)));
    }

    private static ServerSentEvent<Object> stateEvent(JobView view) {
        return ServerSentEvent.<Object>builder(JobResponse.of(view)).event(STATE).build();
    }

    private static ServerSentEvent<Object> progressEvent(Progress progress) {
        return ServerSentEvent.<Object>builder(JobResponse.ProgressResponse.of(progress)).event(PROGRESS).build();
    }

    /** The last event: a state event with a terminal state (or a forgotten job). */
    private static boolean isEnd(ServerSentEvent<Object> event) {
        if (!STATE.equals(event.event())) {
            return false;
        }
        return !(event.data() instanceof JobResponse job) || JobState.valueOf(job.state()).isTerminal();
    }
}
