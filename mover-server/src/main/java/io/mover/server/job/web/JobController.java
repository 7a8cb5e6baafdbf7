package io.mover.server.job.web;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

import io.mover.core.engine.JobKind;
import io.mover.core.engine.JobState;
import io.mover.core.service.FileOutcome;
import io.mover.core.service.FileResults;
import io.mover.core.service.JobEndedException;
import io.mover.core.service.JobId;
import io.mover.core.service.JobService;
import io.mover.core.service.JobUpdate;
import io.mover.core.service.JobView;
import io.mover.server.credential.CredentialStore;
import io.mover.server.problem.FieldProblem;
import io.mover.server.problem.InvalidRequestException;
import io.mover.server.problem.JobNotFoundException;
import io.mover.spi.ErrorCategory;
import io.mover.spi.MoverException;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.codec.ServerSentEvent;
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
 * {@code /api/v1/jobs}: submit, list, get, cancel, pause, resume, change and watch jobs, and their files. A thin caller of {@link JobService}:
 * it translates between the API's records and the service's, and knows nothing of how jobs are stored.
 * Calls into the service run on the bounded-elastic scheduler, never on a Netty event loop: submitting
 * touches the endpoints, and a durable job store will block on its database.
 */
@RestController
@RequestMapping("/api/v1/jobs")
public class JobController {
    static final int DEFAULT_LIMIT = 50;
    static final int MAX_LIMIT = 500;

    static final String MERGE_PATCH_JSON = "application/merge-patch+json";

    private final JobService jobs;
    private final JobEventStream events;
    private final CredentialStore credentials;

    public JobController(JobService jobs, JobEventStream events, CredentialStore credentials) {
        this.jobs = requireNonNull(jobs, "jobs is null");
        this.events = requireNonNull(events, "events is null");
        this.credentials = requireNonNull(credentials, "credentials is null");
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE, produces = MediaType.APPLICATION_JSON_VALUE)
    public Mono<ResponseEntity<JobResponse>> submit(@RequestBody SubmitJobRequest request) {
        return blocking(() -> jobs.submit(request.toSpec(credentials)))
                .map(view -> ResponseEntity.created(URI.create("/api/v1/jobs/" + view.id().value())).body(JobResponse.of(view)));
    }

    @GetMapping(produces = MediaType.APPLICATION_JSON_VALUE)
    public Mono<JobPage> list(@RequestParam(required = false) String state, @RequestParam(required = false) String offset,
            @RequestParam(required = false) String limit, @RequestParam(required = false) String kind,
            @RequestParam(required = false) String schedule) {
        List<FieldProblem> problems = new ArrayList<>();
        Optional<JobState> wanted = parseState(state, problems);
        Optional<JobKind> ofKind = parseKind(kind, problems);
        int from = parseInt("offset", offset, 0, 0, Integer.MAX_VALUE, problems);
        int size = parseInt("limit", limit, DEFAULT_LIMIT, 1, MAX_LIMIT, problems);
        if (!problems.isEmpty()) {
            return Mono.error(new InvalidRequestException(problems));
        }
        // one more than asked tells whether there is a next page without counting them all
        return blocking(() -> list(wanted, ofKind, Optional.ofNullable(schedule).map(String::trim).filter(s -> !s.isEmpty()), from, size + 1))
                .map(views -> new JobPage(
                views.stream().limit(size).map(JobResponse::of).toList(), from, size, views.size() > size));
    }

    /** {@code ?schedule=ID}: the jobs a recurring sync started (docs/rest.md, "Schedules"), which are all syncs. */
    private List<JobView> list(Optional<JobState> state, Optional<JobKind> kind, Optional<String> schedule, int offset, int limit) {
        if (schedule.isEmpty()) {
            return jobs.list(state, kind, offset, limit);
        }
        if (kind.isPresent() && kind.get() != JobKind.SYNC) {
            return List.of();
        }
        return jobs.listBySchedule(schedule.get(), state, offset, limit);
    }

    @GetMapping(path = "/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
    public Mono<JobResponse> get(@PathVariable String id) {
        JobId jobId = parseId(id);
        // most polls are answered here, on the event loop; only a view not at hand costs a blocking read
        Optional<JobView> atHand = jobs.peek(jobId);
        if (atHand.isPresent()) {
            return Mono.just(JobResponse.of(atHand.get()));
        }
        return blocking(() -> jobs.get(jobId).map(JobResponse::of).orElseThrow(() -> new JobNotFoundException(id)));
    }

    /** Asks the job to stop; it ends CANCELLED at the next block boundary. An ended job is a 409. */
    @PostMapping(path = "/{id}/cancel", produces = MediaType.APPLICATION_JSON_VALUE)
    public Mono<JobResponse> cancel(@PathVariable String id) {
        JobId jobId = parseId(id);
        return onJob(id, () -> {
            JobView view = jobs.get(jobId).orElseThrow(() -> new JobNotFoundException(id));
            if (view.state().isTerminal()) {
                throw new JobEndedException(jobId, view.state(), "cancel");
            }
            return JobResponse.of(jobs.cancel(jobId));
        });
    }

    /** Lets files in flight finish and starts no new one; the job shows PAUSED once they have. */
    @PostMapping(path = "/{id}/pause", produces = MediaType.APPLICATION_JSON_VALUE)
    public Mono<JobResponse> pause(@PathVariable String id) {
        JobId jobId = parseId(id);
        return onJob(id, () -> JobResponse.of(jobs.pause(jobId)));
    }

    @PostMapping(path = "/{id}/resume", produces = MediaType.APPLICATION_JSON_VALUE)
    public Mono<JobResponse> resume(@PathVariable String id) {
        JobId jobId = parseId(id);
        return onJob(id, () -> JobResponse.of(jobs.resume(jobId)));
    }

    /** Changes concurrency or the bandwidth cap of a running job (a JSON merge patch, or plain JSON). */
    @PatchMapping(path = "/{id}", consumes = {MERGE_PATCH_JSON, MediaType.APPLICATION_JSON_VALUE},
            produces = MediaType.APPLICATION_JSON_VALUE)
    @io.swagger.v3.oas.annotations.parameters.RequestBody(content = {
            @io.swagger.v3.oas.annotations.media.Content(mediaType = MERGE_PATCH_JSON,
                    schema = @io.swagger.v3.oas.annotations.media.Schema(implementation = JobPatchRequest.class)),
            @io.swagger.v3.oas.annotations.media.Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
                    schema = @io.swagger.v3.oas.annotations.media.Schema(implementation = JobPatchRequest.class))})
    public Mono<JobResponse> update(@PathVariable String id, @RequestBody Map<String, Object> patch) {
        JobId jobId = parseId(id);
        JobUpdate update = JobPatchRequest.parse(patch);
        return onJob(id, () -> JobResponse.of(jobs.update(jobId, update)));
    }

    /** Per-file results, optionally by outcome ({@code transferred}, {@code skipped}, {@code failed}), paged. */
    @GetMapping(path = "/{id}/files", produces = MediaType.APPLICATION_JSON_VALUE)
    public Mono<FilePage> files(@PathVariable String id, @RequestParam(required = false) String outcome,
            @RequestParam(required = false) String offset, @RequestParam(required = false) String limit) {
        JobId jobId = parseId(id);
        List<FieldProblem> problems = new ArrayList<>();
        Optional<FileOutcome> wanted = parseOutcome(outcome, problems);
        int from = parseInt("offset", offset, 0, 0, Integer.MAX_VALUE, problems);
        int size = parseInt("limit", limit, DEFAULT_LIMIT, 1, MAX_LIMIT, problems);
        if (!problems.isEmpty()) {
            return Mono.error(new InvalidRequestException(problems));
        }
        return onJob(id, () -> {
            FileResults results = jobs.files(jobId, wanted, from, size + 1);
            return new FilePage(results.items().stream().limit(size).map(FilePage.FileResponse::of).toList(), from, size,
                    results.items().size() > size, results.notKept());
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

    /** A call about the job in the URL: the service's NOT_FOUND is about that job here, not about a location. */
    private static <T> Mono<T> onJob(String id, Callable<T> call) {
        return blocking(() -> {
            try {
                return call.call();
            }
            catch (MoverException e) {
                if (e.category() == ErrorCategory.NOT_FOUND) {
                    throw new JobNotFoundException(id);
                }
                throw e;
            }
        });
    }

    private static Optional<FileOutcome> parseOutcome(String outcome, List<FieldProblem> problems) {
        if (outcome == null || outcome.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(FileOutcome.valueOf(outcome.trim().toUpperCase(Locale.ROOT)));
        }
        catch (IllegalArgumentException e) {
            problems.add(new FieldProblem("outcome", "unknown outcome '" + outcome + "': one of transferred, skipped, failed"));
            return Optional.empty();
        }
    }

    private static Optional<JobKind> parseKind(String kind, List<FieldProblem> problems) {
        if (kind == null || kind.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(JobKind.valueOf(kind.trim().toUpperCase(Locale.ROOT)));
        }
        catch (IllegalArgumentException e) {
            problems.add(new FieldProblem("kind", "unknown kind '" + kind + "': one of copy, sync, bench"));
            return Optional.empty();
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
