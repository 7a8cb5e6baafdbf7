package io.mover.server.schedule.web;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;

import io.mover.jobstore.schedule.InvalidScheduleException;
import io.mover.jobstore.schedule.ScheduleEvent;
import io.mover.jobstore.service.SyncSchedules;
import io.mover.server.credential.CredentialStore;
import io.mover.server.problem.InvalidRequestException;
import io.mover.server.problem.Problems;
import io.mover.server.schedule.ScheduleMetrics;
import io.mover.spi.ErrorCategory;
import io.mover.spi.MoverException;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import static java.util.Objects.requireNonNull;

/**
 * {@code /api/v1/schedules}: recurring syncs (issue 4). A thin caller of {@link SyncSchedules}; a schedule in the URL
 * is named by its id or its name. Calls run on the bounded-elastic scheduler: they read and write the job store.
 */
@RestController
@RequestMapping("/api/v1/schedules")
public class ScheduleController {
    static final String MERGE_PATCH_JSON = "application/merge-patch+json";
    private static final URI NOT_FOUND = Problems.type("schedule-not-found");
    private static final int MAX_EVENTS = 200;

    private final SyncSchedules schedules;
    private final CredentialStore credentials;
    private final ScheduleMetrics metrics;
    private final Duration pollInterval;

    public ScheduleController(SyncSchedules schedules, CredentialStore credentials, ScheduleMetrics metrics) {
        this.schedules = requireNonNull(schedules, "schedules is null");
        this.credentials = requireNonNull(credentials, "credentials is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
        this.pollInterval = Duration.ofSeconds(2);
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE, produces = MediaType.APPLICATION_JSON_VALUE)
    public Mono<ResponseEntity<ScheduleResponse>> create(@RequestBody ScheduleRequest request) {
        return blocking(() -> {
            ScheduleRequest.Create create = request.toCreate(credentials);
            ScheduleResponse created = ScheduleResponse.of(schedules.create(create.name(), create.timing(), create.template(), create.rpoTarget(),
                    create.overlap(), create.paused()));
            metrics.refresh();
            return ResponseEntity.created(URI.create("/api/v1/schedules/" + created.id())).body(created);
        });
    }

    @GetMapping(produces = MediaType.APPLICATION_JSON_VALUE)
    public Mono<ScheduleResponse.SchedulePage> list() {
        return blocking(() -> {
            metrics.refresh();
            return new ScheduleResponse.SchedulePage(schedules.list().stream().map(ScheduleResponse::of).toList());
        });
    }

    @GetMapping(path = "/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
    public Mono<ScheduleResponse> get(@PathVariable String id) {
        return blocking(() -> ScheduleResponse.of(schedules.find(id).orElseThrow(() -> new ScheduleNotFoundException(id))));
    }

    /** Changes the fields given (a JSON merge patch, or plain JSON): timing, template, RPO target, overlap, name, paused. */
    @PatchMapping(path = "/{id}", consumes = {MERGE_PATCH_JSON, MediaType.APPLICATION_JSON_VALUE}, produces = MediaType.APPLICATION_JSON_VALUE)
    public Mono<ScheduleResponse> update(@PathVariable String id, @RequestBody ScheduleRequest patch) {
        return blocking(() -> {
            var current = schedules.find(id).orElseThrow(() -> new ScheduleNotFoundException(id));
            ScheduleResponse changed = ScheduleResponse.of(schedules.update(current.schedule().id(),
                    patch.toUpdate(credentials, current.schedule().definition().timing())));
            metrics.refresh();
            return changed;
        });
    }

    /** Removes the schedule and its events; runs in progress go on, and its jobs stay listed. */
    @DeleteMapping(path = "/{id}")
    public Mono<ResponseEntity<Void>> delete(@PathVariable String id) {
        return blocking(() -> {
            schedules.delete(id);
            metrics.refresh();
            return ResponseEntity.noContent().build();
        });
    }

    @PostMapping(path = "/{id}/pause", produces = MediaType.APPLICATION_JSON_VALUE)
    public Mono<ScheduleResponse> pause(@PathVariable String id) {
        return blocking(() -> ScheduleResponse.of(schedules.pause(id)));
    }

    @PostMapping(path = "/{id}/resume", produces = MediaType.APPLICATION_JSON_VALUE)
    public Mono<ScheduleResponse> resume(@PathVariable String id) {
        return blocking(() -> ScheduleResponse.of(schedules.resume(id)));
    }

    /** Events oldest first: those after {@code after}, or the newest {@code limit} without it. */
    @GetMapping(path = "/{id}/events", produces = MediaType.APPLICATION_JSON_VALUE)
    public Mono<ScheduleResponse.EventPage> events(@PathVariable String id, @RequestParam(required = false) Long after,
            @RequestParam(required = false) Integer limit) {
        int size = limit == null ? 50 : limit;
        if (size < 1 || size > MAX_EVENTS) {
            return Mono.error(InvalidRequestException.of("limit", "must be a whole number from 1 to " + MAX_EVENTS + ", got " + limit));
        }
        if (after != null && after < 0) {
            return Mono.error(InvalidRequestException.of("after", "must be 0 or more, got " + after));
        }
        return blocking(() -> page(schedules.events(id, after == null ? -1 : after, size), after == null ? 0 : after));
    }

    /**
     * The same events as Server-Sent Events: the newest 20, then each new one as it is stored (looked for every 2 s),
     * with a keep-alive comment every 15 s. The event's name is its kind, its id its number.
     */
    @GetMapping(path = "/{id}/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    public Flux<ServerSentEvent<Object>> stream(@PathVariable String id) {
        AtomicLong last = new AtomicLong(-1);
        Flux<ServerSentEvent<Object>> events = Flux.interval(Duration.ZERO, pollInterval).onBackpressureDrop()
                .concatMap(tick -> blocking(() -> schedules.events(id, last.get(), last.get() < 0 ? 20 : MAX_EVENTS)))
                .concatMapIterable(list -> {
                    if (last.get() < 0) {
                        last.set(0);
                    }
                    list.forEach(event -> last.set(event.seq()));
                    return list.stream().map(ScheduleController::event).toList();
                });
        Flux<ServerSentEvent<Object>> keepAlive = Flux.interval(Duration.ofSeconds(15)).onBackpressureDrop()
                .map(tick -> ServerSentEvent.builder().comment("keep-alive").build());
        return Flux.merge(events, keepAlive);
    }

    @ExceptionHandler(ScheduleNotFoundException.class)
    public ResponseEntity<ProblemDetail> notFound(ScheduleNotFoundException e) {
        return ResponseEntity.status(HttpStatus.NOT_FOUND).body(Problems.problem(HttpStatus.NOT_FOUND, NOT_FOUND, "Schedule not found", e.getMessage()));
    }

    private static ServerSentEvent<Object> event(ScheduleEvent event) {
        return ServerSentEvent.<Object>builder(ScheduleResponse.EventResponse.of(event)).id(Long.toString(event.seq())).event(event.kind().name()).build();
    }

    private static ScheduleResponse.EventPage page(List<ScheduleEvent> events, long after) {
        long next = events.isEmpty() ? after : events.getLast().seq();
        return new ScheduleResponse.EventPage(events.stream().map(ScheduleResponse.EventResponse::of).toList(), next);
    }

    /** The service's errors in this API's terms: a bad field is a 400 naming it, an unknown schedule a 404. */
    private static <T> Mono<T> blocking(Callable<T> call) {
        return Mono.fromCallable(() -> {
            try {
                return call.call();
            }
            catch (InvalidScheduleException e) {
                throw InvalidRequestException.of(e.field(), e.reason());
            }
            catch (MoverException e) {
                if (e.category() == ErrorCategory.NOT_FOUND && e.getMessage().startsWith("no schedule")) {
                    throw new ScheduleNotFoundException(e.getMessage());
                }
                throw e;
            }
        }).subscribeOn(Schedulers.boundedElastic());
    }

    /** The schedule in the URL does not exist. Rendered as 404. */
    static final class ScheduleNotFoundException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ScheduleNotFoundException(String idOrMessage) {
            super(idOrMessage.startsWith("no schedule") ? idOrMessage : "no schedule '" + idOrMessage + "'; GET /api/v1/schedules lists them");
        }
    }
}
