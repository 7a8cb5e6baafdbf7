package io.mover.server.job.web;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;

import io.mover.core.engine.JobState;
import io.mover.core.service.JobId;
import io.mover.core.service.JobService;
import io.mover.core.service.JobView;
import io.mover.server.problem.FieldProblem;
import io.mover.server.problem.InvalidRequestException;
import io.mover.server.problem.JobNotFoundException;
import io.mover.spi.ErrorCategory;
import io.mover.spi.MoverException;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.web.bind.annotation.GetMapping;
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
 * {@code /api/v1/jobs}: submit, list, get, cancel and watch jobs. A thin caller of {@link JobService}:
 * it translates between the API's records and the service's, and knows nothing of how jobs are stored.
 * Calls into the service run on the bounded-elastic scheduler, never on a Netty event loop: submitting
 * touches the endpoints, and a durable job store will block on its database.
 */
@RestController
@RequestMapping("/api/v1/jobs")
public class JobController {
    static final int DEFAULT_LIMIT = 50;
    static final int MAX_LIMIT = 500;

    private final JobService jobs;
    private final JobEventStream events;

    public JobController(JobService jobs, JobEventStream events) {
        this.jobs = requireNonNull(jobs, "jobs is null");
        this.events = requireNonNull(events, "events is null");
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE, produces = MediaType.APPLICATION_JSON_VALUE)
    public Mono<ResponseEntity<JobResponse>> submit(@RequestBody SubmitJobRequest request) {
        return blocking(() -> jobs.submit(request.toSpec()))
                .map(view -> ResponseEntity.created(URI.create("/api/v1/jobs/" + view.id().value())).body(JobResponse.of(view)));
    }

    @GetMapping(produces = MediaType.APPLICATION_JSON_VALUE)
    public Mono<JobPage> list(@RequestParam(required = false) String state, @RequestParam(required = false) String offset,
            @RequestParam(required = false) String limit) {
        List<FieldProblem> problems = new ArrayList<>();
        Optional<JobState> wanted = parseState(state, problems);
        int from = parseInt("offset", offset, 0, 0, Integer.MAX_VALUE, problems);
        int size = parseInt("limit", limit, DEFAULT_LIMIT, 1, MAX_LIMIT, problems);
        if (!problems.isEmpty()) {
            return Mono.error(new InvalidRequestException(problems));
        }
        // one more than asked tells whether there is a next page without counting them all
        return blocking(() -> jobs.list(wanted, from, size + 1)).map(views -> new JobPage(
                views.stream().limit(size).map(JobResponse::of).toList(), from, size, views.size() > size));
    }

    @GetMapping(path = "/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
    public Mono<JobResponse> get(@PathVariable String id) {
        JobId jobId = parseId(id);
        return blocking(() -> jobs.get(jobId).map(JobResponse::of).orElseThrow(() -> new JobNotFoundException(id)));
    }

    /** Asks the job to stop; it ends CANCELLED at the next block boundary. Cancelling an ended job changes nothing. */
    @PostMapping(path = "/{id}/cancel", produces = MediaType.APPLICATION_JSON_VALUE)
    public Mono<JobResponse> cancel(@PathVariable String id) {
        JobId jobId = parseId(id);
        return blocking(() -> {
            try {
                return JobResponse.of(jobs.cancel(jobId));
            }
            catch (MoverException e) {
                // the service's NOT_FOUND is about the job in the URL here, not about a location
                if (e.category() == ErrorCategory.NOT_FOUND) {
                    throw new JobNotFoundException(id);
                }
                throw e;
            }
        });
    }

    @GetMapping(path = "/{id}/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    public Flux<ServerSentEvent<Object>> events(@PathVariable String id) {
        return events.events(parseId(id));
    }

    /** An id this server cannot have issued names no job: 404, like any other unknown id. */
    private static JobId parseId(String id) {
        try {
            return JobId.of(id);
        }
        catch (MoverException e) {
            throw new JobNotFoundException(id);
        }
    }

    private static Optional<JobState> parseState(String state, List<FieldProblem> problems) {
        if (state == null || state.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(JobState.valueOf(state.trim().toUpperCase(Locale.ROOT)));
        }
        catch (IllegalArgumentException e) {
            problems.add(new FieldProblem("state", "unknown state '" + state + "': one of "
                    + String.join(", ", java.util.Arrays.stream(JobState.values()).map(Enum::name).toList())));
            return Optional.empty();
        }
    }

    private static int parseInt(String name, String text, int fallback, int min, int max, List<FieldProblem> problems) {
        if (text == null || text.isBlank()) {
            return fallback;
        }
        try {
            int value = Integer.parseInt(text.trim());
            if (value >= min && value <= max) {
                return value;
            }
        }
        catch (NumberFormatException e) {
            // reported below, with the range
        }
        problems.add(new FieldProblem(name, "must be a whole number from " + min + " to " + max + ", got '" + text + "'"));
        return fallback;
    }

    private static <T> Mono<T> blocking(Callable<T> call) {
        return Mono.fromCallable(call).subscribeOn(Schedulers.boundedElastic());
    }
}
