package io.mover.server.problem;

import java.net.URI;
import java.util.Locale;

import io.mover.spi.ErrorCode;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;

/**
 * The problem types of the API (RFC 9457), documented in docs/rest.md. Types are URNs: stable names,
 * not links that could rot. Errors of the engine take their type from their {@link ErrorCode}.
 */
public final class Problems {
    public static final String PREFIX = "urn:mover:problem:";
    public static final URI INVALID_REQUEST = type("invalid-request");
    public static final URI MALFORMED_JSON = type("malformed-json");
    public static final URI JOB_NOT_FOUND = type("job-not-found");
    public static final URI UNAUTHORIZED = type("unauthorized");
    public static final URI FORBIDDEN = type("forbidden");
    public static final URI JOB_ENDED = type("job-ended");
    public static final URI BODY_TOO_LARGE = type("body-too-large");
    public static final URI INTERNAL = type("internal");

    private Problems() {}

    public static URI type(String name) {
        return URI.create(PREFIX + name);
    }

    public static URI type(ErrorCode code) {
        return type(code.name().toLowerCase(Locale.ROOT).replace('_', '-'));
    }

    public static ProblemDetail problem(HttpStatusCode status, URI type, String title, String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
        problem.setType(type);
        problem.setTitle(title);
        return problem;
    }

    /**
     * The HTTP status of an engine error. Bad input is the caller's (400), including a location in the
     * request body that does not exist: the URL itself named something that exists, so 404 would
     * mislead (a 404 from this API always means the job or path in the URL). Credentials the caller
     * sent that the storage refused are bad input too. Only the server's own faults are 500.
     */
    public static HttpStatus status(ErrorCode code) {
        return switch (code) {
            case AUTHENTICATION_FAILED -> HttpStatus.BAD_REQUEST;
            case NO_SPACE -> HttpStatus.INSUFFICIENT_STORAGE;
            case CANCELLED -> HttpStatus.CONFLICT;
            case PLUGIN_FAILED, INTERNAL -> HttpStatus.INTERNAL_SERVER_ERROR;
            default -> switch (code.category()) {
                case USER, NOT_FOUND -> HttpStatus.BAD_REQUEST;
                case RETRYABLE -> HttpStatus.SERVICE_UNAVAILABLE;
                case FATAL -> HttpStatus.INTERNAL_SERVER_ERROR;
            };
        };
    }
}
