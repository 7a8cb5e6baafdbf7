package io.mover.server.job.web;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import io.mover.bench.HtmlReport;
import io.mover.bench.JsonReport;
import io.mover.core.engine.JobKind;
import io.mover.core.service.JobId;
import io.mover.core.service.JobService;
import io.mover.core.service.JobView;
import io.mover.server.problem.FieldProblem;
import io.mover.server.problem.InvalidRequestException;
import io.mover.server.problem.JobNotFoundException;
import io.mover.server.problem.Problems;
import io.mover.spi.MoverException;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import static java.util.Objects.requireNonNull;

/**
 * {@code GET /api/v1/jobs/{id}/report}: a bench job's report, as {@code mover bench --output json} prints it,
 * or its self-contained HTML page with {@code Accept: text/html} or {@code ?format=html}. A job without a
 * report (not a bench, or a bench that has not succeeded) is a 409 {@code no-report} with its state.
 */
@RestController
@RequestMapping("/api/v1/jobs")
public class JobReportController {
    static final java.net.URI NO_REPORT = Problems.type("no-report");

    private final JobService jobs;

    public JobReportController(JobService jobs) {
        this.jobs = requireNonNull(jobs, "jobs is null");
    }

    @GetMapping(path = "/{id}/report", produces = {MediaType.APPLICATION_JSON_VALUE, MediaType.TEXT_HTML_VALUE})
    public Mono<ResponseEntity<String>> report(@PathVariable String id, @RequestParam(required = false) String format,
            @RequestHeader(name = "Accept", required = false) String accept) {
        boolean html = html(format, accept);
        return blocking(() -> {
            String json = report(id);
            return html ? ResponseEntity.ok().contentType(MediaType.TEXT_HTML).body(HtmlReport.of(JsonReport.parse(json)))
                    : ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(json);
        });
    }

    /** The job's report (JSON), or a 404 for an unknown job and a 409 for a job that has none. */
    String report(String id) {
        JobId jobId = parse(id);
        JobView view = jobs.get(jobId).orElseThrow(() -> new JobNotFoundException(id));
        return jobs.report(jobId).orElseThrow(() -> noReport(view));
    }

    public static ErrorResponseException noReport(JobView view) {
        String detail = view.spec().kind() != JobKind.BENCH
                ? "job " + view.id() + " is a " + view.spec().kind().name().toLowerCase(Locale.ROOT) + " job: only bench jobs have a report"
                : "bench " + view.id() + " has no report: it is " + view.state() + (view.state().isTerminal() ? "" : "; its report comes when it succeeds");
        ProblemDetail problem = Problems.problem(HttpStatus.CONFLICT, NO_REPORT, "No report", detail);
        problem.setProperty("state", view.state().name());
        return new ErrorResponseException(HttpStatus.CONFLICT, problem, null);
    }

    /** {@code ?format=html|json} decides; without it, an Accept header naming text/html before JSON asks for the page. */
    private static boolean html(String format, String accept) {
        if (format != null && !format.isBlank()) {
            return switch (format.trim().toLowerCase(Locale.ROOT)) {
                case "html" -> true;
                case "json" -> false;
                default -> throw new InvalidRequestException(List.of(new FieldProblem("format", "must be json or html, got '" + format + "'")));
            };
        }
        if (accept == null) {
            return false;
        }
        int page = accept.indexOf(MediaType.TEXT_HTML_VALUE);
        int json = accept.indexOf(MediaType.APPLICATION_JSON_VALUE);
        return page >= 0 && (json < 0 || page < json);
    }

    private static JobId parse(String id) {
        try {
            return JobId.of(id);
        }
        catch (MoverException e) {
            throw new JobNotFoundException(id);
        }
    }

    private static <T> Mono<T> blocking(Callable<T> call) {
        return Mono.fromCallable(call).subscribeOn(Schedulers.boundedElastic());
    }
}
