package io.mover.server.bench;

import java.net.URI;
import java.util.List;
import java.util.concurrent.Callable;

import io.mover.bench.HtmlReport;
import io.mover.core.service.JobId;
import io.mover.core.service.JobEndedException;
import io.mover.server.problem.JobNotFoundException;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import static java.util.Objects.requireNonNull;

/**
 * {@code /api/v1/benches}: bench jobs (kind {@code bench}, docs/bench.md and docs/rest.md). Submitting
 * checks the request and queues the bench; its state and, once it has ended, its report are read back
 * here, the HTML report from {@code /{id}/report.html}.
 */
@RestController
@RequestMapping("/api/v1/benches")
public class BenchController {
    private final BenchJobs benches;

    public BenchController(BenchJobs benches) {
        this.benches = requireNonNull(benches, "benches is null");
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE, produces = MediaType.APPLICATION_JSON_VALUE)
    public Mono<ResponseEntity<BenchResponse>> submit(@RequestBody BenchRequest request) {
        return blocking(() -> {
            BenchJobs.Run run = benches.submit(request);
            return ResponseEntity.created(URI.create("/api/v1/benches/" + run.id)).body(BenchResponse.of(run));
        });
    }

    @GetMapping(produces = MediaType.APPLICATION_JSON_VALUE)
    public Mono<List<BenchResponse>> list() {
        return blocking(() -> benches.list().stream().map(BenchResponse::of).toList());
    }

    @GetMapping(path = "/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
    public Mono<BenchResponse> get(@PathVariable String id) {
        return blocking(() -> BenchResponse.of(find(id)));
    }

    /** The self-contained HTML report of a bench that succeeded; 409 before that. */
    @GetMapping(path = "/{id}/report.html", produces = MediaType.TEXT_HTML_VALUE)
    public Mono<String> html(@PathVariable String id) {
        return blocking(() -> {
            BenchJobs.Run run = find(id);
            if (run.report == null) {
                throw new ResponseStatusException(HttpStatus.CONFLICT, "bench " + run.id + " has no report: it is " + run.state
                        + (run.error == null ? "" : " (" + run.error + ")"));
            }
            return HtmlReport.of(run.report);
        });
    }

    /** Stops the bench at its next operation; what it wrote is removed. An ended bench is a 409. */
    @PostMapping(path = "/{id}/cancel", produces = MediaType.APPLICATION_JSON_VALUE)
    public Mono<BenchResponse> cancel(@PathVariable String id) {
        return blocking(() -> {
            BenchJobs.Run run = find(id);
            if (run.state.isTerminal()) {
                throw new JobEndedException(JobId.of(run.id), run.state, "cancel");
            }
            benches.cancel(run);
            return BenchResponse.of(run);
        });
    }

    private BenchJobs.Run find(String id) {
        return benches.get(id).orElseThrow(() -> new JobNotFoundException(id));
    }

    private static <T> Mono<T> blocking(Callable<T> call) {
        return Mono.fromCallable(call).subscribeOn(Schedulers.boundedElastic());
    }
}
