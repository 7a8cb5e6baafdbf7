package io.mover.server.problem;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import io.mover.core.service.JobEndedException;
import io.mover.core.service.JobService;
import io.mover.spi.ConfigSpec;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.reactive.result.method.annotation.ResponseEntityExceptionHandler;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.web.server.ContentTooLargeException;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.ServerWebInputException;
import reactor.core.publisher.Mono;
import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;

import static java.util.Objects.requireNonNull;

/**
 * Turns every error of the API into an RFC 9457 problem: Spring's own (through the base class), bad
 * JSON, bad fields, unknown jobs and the engine's {@link MoverException}s by code. Bad input never
 * becomes a 500, and no response carries a stack trace. Extra members: {@code errors} (a list of
 * {@link FieldProblem}), {@code code} and {@code category} (of an engine error), {@code installedSchemes}.
 */
@RestControllerAdvice
public class ProblemHandler extends ResponseEntityExceptionHandler {
    private static final Logger LOG = LoggerFactory.getLogger(ProblemHandler.class);

    private final JobService jobs;
    private final RequestBodyLimit bodyLimit;

    public ProblemHandler(JobService jobs, RequestBodyLimit bodyLimit) {
        this.jobs = requireNonNull(jobs, "jobs is null");
        this.bodyLimit = requireNonNull(bodyLimit, "bodyLimit is null");
    }

    @ExceptionHandler(InvalidRequestException.class)
    public ResponseEntity<ProblemDetail> invalidRequest(InvalidRequestException e) {
        return invalid(e.getMessage(), e.problems());
    }

    @ExceptionHandler(JobNotFoundException.class)
    public ResponseEntity<ProblemDetail> jobNotFound(JobNotFoundException e) {
        return respond(Problems.problem(HttpStatus.NOT_FOUND, Problems.JOB_NOT_FOUND, "Job not found", e.getMessage()));
    }

    /** Pausing, resuming, changing or cancelling a job that has ended conflicts with its state. */
    @ExceptionHandler(JobEndedException.class)
    public ResponseEntity<ProblemDetail> jobEnded(JobEndedException e) {
        ProblemDetail problem = Problems.problem(HttpStatus.CONFLICT, Problems.JOB_ENDED, "Job has ended", e.getMessage());
        problem.setProperty("state", e.state().name());
        return respond(problem);
    }

    /** A body past {@code mover.max-request-body}, found while it streamed or by the decoder's limit. */
    @ExceptionHandler({ContentTooLargeException.class, DataBufferLimitException.class})
    public ResponseEntity<ProblemDetail> tooLarge(Exception e) {
        return respond(Problems.problem(HttpStatus.CONTENT_TOO_LARGE, Problems.BODY_TOO_LARGE,
                HttpStatus.CONTENT_TOO_LARGE.getReasonPhrase(), bodyLimit.tooLarge()));
    }

    @ExceptionHandler(MoverException.class)
    public ResponseEntity<ProblemDetail> mover(MoverException e) {
        HttpStatus status = Problems.status(e.code());
        if (status.is5xxServerError()) {
            LOG.warn("request failed: {} {}", e.code(), e.getMessage(), e);
        }
        ProblemDetail problem = Problems.problem(status, Problems.type(e.code()), title(e.code()), e.getMessage());
        problem.setProperty("code", e.code().name());
        problem.setProperty("category", e.category().name());
        if (e instanceof ConfigSpec.InvalidConfigException config) {
            problem.setProperty("errors", config.problems().stream().map(p -> new FieldProblem(p.key(), p.message())).toList());
        }
        if (e.code() == ErrorCode.UNKNOWN_SCHEME) {
            problem.setProperty("installedSchemes", installedSchemes());
        }
        ResponseEntity.BodyBuilder response = ResponseEntity.status(status);
        if (status == HttpStatus.SERVICE_UNAVAILABLE) {
            response.header(HttpHeaders.RETRY_AFTER, "5");
        }
        return response.body(problem);
    }

    /** The last resort: a bug. Logged once with its stack trace; the caller gets a problem without one. */
    @ExceptionHandler(Exception.class)
    public ResponseEntity<ProblemDetail> unexpected(Exception e) {
        LOG.error("unexpected error", e);
        return respond(Problems.problem(HttpStatus.INTERNAL_SERVER_ERROR, Problems.INTERNAL, "Internal server error",
                "the server failed unexpectedly; the server log has the details"));
    }

    /** Unreadable bodies: malformed JSON, a value of the wrong type, an unknown field. */
    @Override
    protected Mono<ResponseEntity<Object>> handleServerWebInputException(ServerWebInputException e, HttpHeaders headers,
            HttpStatusCode status, ServerWebExchange exchange) {
        JacksonException json = find(e, JacksonException.class);
        if (json == null) {
            // Spring's default detail ("Invalid request content") hides the reason; ours are safe to show
            String reason = e.getReason() == null ? "the request could not be read" : e.getReason();
            if (reason.startsWith("No request body")) {
                reason = "the request has no body: send the job as a JSON object";
            }
            return Mono.just(ResponseEntity.badRequest().body(Problems.problem(HttpStatus.BAD_REQUEST, Problems.INVALID_REQUEST,
                    "Invalid request", reason)));
        }
        String field = field(json);
        if (json instanceof DatabindException && !field.isEmpty()) {
            String reason = reason(json);
            return Mono.just(ResponseEntity.badRequest().body(invalid("invalid request: " + field + ": " + reason,
                    List.of(new FieldProblem(field, reason))).getBody()));
        }
        TokenStreamLocation where = json.getLocation();
        String detail = "the body is not valid JSON: " + json.getOriginalMessage()
                + (where == null ? "" : " (line " + where.getLineNr() + ", column " + where.getColumnNr() + ")");
        return Mono.just(ResponseEntity.badRequest().body(Problems.problem(HttpStatus.BAD_REQUEST, Problems.MALFORMED_JSON,
                "Malformed JSON", detail)));
    }

    private static ResponseEntity<ProblemDetail> invalid(String detail, List<FieldProblem> problems) {
        ProblemDetail problem = Problems.problem(HttpStatus.BAD_REQUEST, Problems.INVALID_REQUEST, "Invalid request", detail);
        problem.setProperty("errors", problems);
        return respond(problem);
    }

    private static ResponseEntity<ProblemDetail> respond(ProblemDetail problem) {
        return ResponseEntity.status(problem.getStatus()).body(problem);
    }

    private List<String> installedSchemes() {
        TreeSet<String> schemes = new TreeSet<>();
        jobs.plugins().forEach(plugin -> {
            schemes.addAll(plugin.sources());
            schemes.addAll(plugin.sinks());
        });
        return List.copyOf(schemes);
    }

    /** The JSON path of the bad value: {@code options.concurrency}, {@code options.include[2]}. */
    private static String field(JacksonException e) {
        StringBuilder path = new StringBuilder();
        for (JacksonException.Reference reference : e.getPath()) {
            if (reference.getPropertyName() != null) {
                path.append(path.isEmpty() ? "" : ".").append(reference.getPropertyName());
            }
            else if (reference.getIndex() >= 0) {
                path.append('[').append(reference.getIndex()).append(']');
            }
        }
        return path.toString();
    }

    private static String reason(JacksonException e) {
        if (e instanceof UnrecognizedPropertyException unknown) {
            Collection<Object> known = unknown.getKnownPropertyIds();
            List<String> names = new ArrayList<>();
            known.forEach(id -> names.add(String.valueOf(id)));
            return "unknown field; known fields: " + String.join(", ", new TreeSet<>(names));
        }
        if (e instanceof MismatchedInputException mismatch && mismatch.getTargetType() != null) {
            String got = e instanceof InvalidFormatException format ? ", got '" + format.getValue() + "'" : "";
            return "must be " + describe(mismatch.getTargetType()) + got;
        }
        return e.getOriginalMessage();
    }

    private static String describe(Class<?> type) {
        if (type == Integer.class || type == int.class || type == Long.class || type == long.class) {
            return "a whole number";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        if (type == String.class) {
            return "a string";
        }
        if (Collection.class.isAssignableFrom(type)) {
            return "an array";
        }
        if (Map.class.isAssignableFrom(type) || type.isRecord()) {
            return "an object";
        }
        return "a " + type.getSimpleName();
    }

    private static String title(ErrorCode code) {
        String words = code.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
        return Character.toUpperCase(words.charAt(0)) + words.substring(1);
    }

    private static <T extends Throwable> T find(Throwable e, Class<T> type) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
    }
}
