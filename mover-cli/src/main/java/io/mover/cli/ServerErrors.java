package io.mover.cli;

import java.net.ConnectException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;

import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import tools.jackson.databind.JsonNode;

/**
 * Turns what a server answered (or that it did not) into a {@link MoverException} whose code gives the
 * same exit code as the standalone CLI would: the problem's {@code code} when the server names one
 * (a missing source is 3 either way), else by HTTP status. The message is one line for a person.
 */
final class ServerErrors {
    private ServerErrors() {}

    static MoverException unreachable(URI base, Throwable error) {
        return new MoverException(ErrorCode.CONNECTION_LOST, "cannot reach the mover server at " + base + ": " + reason(error)
                + "; start it with mover serve or check --server", error);
    }

    /** A non-2xx answer; {@code body} is its problem detail (RFC 9457) or whatever the server sent. */
    static MoverException of(URI base, int status, String body) {
        JsonNode problem = parse(body);
        String detail = text(problem, "detail");
        if (detail == null) {
            detail = "HTTP " + status + (text(problem, "title") == null ? "" : " " + text(problem, "title"));
        }
        return switch (status) {
            case 401 -> new MoverException(ErrorCode.AUTHENTICATION_FAILED, "the mover server at " + base + " refused the request: " + detail
                    + "; pass a token with --token-file FILE or $MOVER_TOKEN");
            case 403 -> new MoverException(ErrorCode.AUTHENTICATION_FAILED, "the mover server at " + base + " refused the request: " + detail
                    + "; pass a token with scope operate (--token-file FILE or $MOVER_TOKEN)");
            // only the job or schedule in the URL is ever 404 in this API; any other 404 is a path an older server lacks
            case 404 -> "urn:mover:problem:job-not-found".equals(text(problem, "type"))
                    || "urn:mover:problem:schedule-not-found".equals(text(problem, "type"))
                    ? new MoverException(ErrorCode.NOT_FOUND, detail)
                    : new MoverException(ErrorCode.UNSUPPORTED, "the mover server at " + base + " does not offer this (" + detail
                            + "); is it an older version than this mover?");
            default -> {
                ErrorCode code = code(text(problem, "code")).orElse(status >= 500 ? ErrorCode.INTERNAL : ErrorCode.INVALID_ARGUMENT);
                yield new MoverException(code, status >= 500 ? "the mover server at " + base + " failed: " + detail : detail);
            }
        };
    }

    static java.util.Optional<ErrorCode> code(String name) {
        if (name == null) {
            return java.util.Optional.empty();
        }
        try {
            return java.util.Optional.of(ErrorCode.valueOf(name));
        }
        catch (IllegalArgumentException e) {
            // a newer server's code: fall back on the HTTP status
            return java.util.Optional.empty();
        }
    }

    private static String reason(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof HttpConnectTimeoutException) {
                return "connection timed out";
            }
            if (cause instanceof ConnectException) {
                return "connection refused";
            }
            if (cause instanceof UnknownHostException) {
                return "unknown host";
            }
            if (cause instanceof HttpTimeoutException) {
                return "no answer in time";
            }
        }
        String message = error.getMessage();
        return message == null || message.isBlank() ? error.getClass().getSimpleName() : message;
    }

    private static JsonNode parse(String body) {
        if (body == null || body.isBlank()) {
            return null;
        }
        try {
            return ServerClient.JSON.readTree(body);
        }
        catch (RuntimeException e) {
            // not JSON (a proxy's error page): the status alone speaks
            return null;
        }
    }

    private static String text(JsonNode node, String field) {
        if (node == null || !node.isObject() || node.get(field) == null || node.get(field).isNull()) {
            return null;
        }
        String value = node.get(field).asString();
        return value.isBlank() ? null : value.strip().replaceAll("\\s*\\R\\s*", " ");
    }
}
