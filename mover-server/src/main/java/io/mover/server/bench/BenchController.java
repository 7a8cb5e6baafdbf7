package io.mover.server.bench;

import java.net.URI;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

import io.mover.bench.HtmlReport;
import io.mover.bench.JsonReport;
import io.mover.core.engine.JobKind;
import io.mover.core.service.JobEndedException;
import io.mover.core.service.JobId;
import io.mover.core.service.JobService;
import io.mover.core.service.JobView;
import io.mover.server.problem.JobNotFoundException;
import io.mover.spi.MoverException;

import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import static java.util.Objects.requireNonNull;

/**
 * {@code /api/v1/benches}: the first bench API, kept as an alias of bench jobs in the job store (docs/rest.md).
 * A bench submitted here is a job of kind {@code bench} like one from {@code POST /api/v1/jobs}: listed by
 * {@code GET /api/v1/jobs?kind=bench}, cancelled by either API, its report at {@code /api/v1/jobs/{id}/report}.
 */
@RestController
@RequestMapping("/api/v1/benches")
public class BenchController {
    private static final int LISTED = 100;

    private final JobService jobs;

    public BenchController(JobService jobs) {
        this.jobs = requireNonNull(jobs, "jobs is null");
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE, produces = MediaType.APPLICATION_JSON_VALUE)
    public Mono<ResponseEntity<BenchResponse>> submit(@RequestBody BenchRequest request) {
        return blocking(() -> {
            JobView view = jobs.submit(request.toSpec());
            return ResponseEntity.created(URI.create("/api/v1/benches/" + view.id().value())).body(BenchResponse.of(view, Optional.empty()));
        });
    }

    /** The last {@value #LISTED} benches, newest first, without their reports. */
    @GetMapping(produces = MediaType.APPLICATION_JSON_VALUE)
    public Mono<List<BenchResponse>> list() {
        return blocking(() -> jobs.list(Optional.empty(), Optional.of(JobKind.BENCH), 0, LISTED).stream()
                .map(view -> BenchResponse.of(view, Optional.empty())).toList());
    }

    @GetMapping(path = "/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
    public Mono<BenchResponse> get(@PathVariable String id) {
        return blocking(() -> {
            JobView view = find(id);
            return BenchResponse.of(view, jobs.report(view.id()).map(JsonReport::parse));
        });
    }

    /** The self-contained HTML report of a bench that succeeded; 409 before that. */
    @GetMapping(path = "/{id}/report.html", produces = MediaType.TEXT_HTML_VALUE)
    public Mono<String> html(@PathVariable String id) {
        return blocking(() -> {
            JobView view = find(id);
            String json = jobs.report(view.id()).orElseThrow(() -> io.mover.server.job.web.JobReportController.noReport(view));
            return HtmlReport.of(JsonReport.parse(json));
        });
    }

    /** Stops the bench at its next operation; what it wrote is removed. An ended bench is a 409. */
    @PostMapping(path = "/{id}/cancel", produces = MediaType.APPLICATION_JSON_VALUE)
    public Mono<BenchResponse> cancel(@PathVariable String id) {
        return blocking(() -> {
            JobView view = find(id);
            if (view.state().isTerminal()) {
                throw new JobEndedException(view.id(), view.state(), "cancel");
            }
            return BenchResponse.of(jobs.cancel(view.id()), Optional.empty());
        });
    }

    /** A bench job, or 404 (for an id that is no job, or a job of another kind). */
    private JobView find(String id) {
        try {
            return jobs.get(JobId.of(id)).filter(view -> view.spec().kind() == JobKind.BENCH).orElseThrow(() -> new JobNotFoundException(id));
        }
        catch (MoverException e) {
            throw new JobNotFoundException(id);
        }
    }

    private static <T> Mono<T> blocking(Callable<T> call) {
        return Mono.fromCallable(call).subscribeOn(Schedulers.boundedElastic());
    }
}
