package io.mover.server.job.web;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.mover.core.engine.TransferOptions;
import io.mover.core.service.JobUpdate;
import io.mover.server.problem.FieldProblem;
import io.mover.server.problem.InvalidRequestException;

/**
 * The body of {@code PATCH /api/v1/jobs/{id}}, a JSON merge patch (RFC 7396) of a job's live settings.
 * Read from the raw object rather than bound to this record, because a merge patch tells "absent"
 * (leave it) from {@code null} (remove it), which a record cannot; the record documents the shape.
 *
 * @param concurrency files (or ranges) in flight, 1 to 1024; cannot be removed
 * @param bandwidthCapMbps megabits per second across the job's workers; 0 or {@code null} removes the cap
 */
public record JobPatchRequest(Integer concurrency, Double bandwidthCapMbps) {
    static final String CONCURRENCY = "concurrency";
    static final String CAP = "bandwidthCapMbps";

    /** The update {@code body} asks for, or an {@link InvalidRequestException} listing every bad field. */
    static JobUpdate parse(Map<String, Object> body) {
        List<FieldProblem> problems = new ArrayList<>();
        for (String key : body.keySet()) {
            if (!key.equals(CONCURRENCY) && !key.equals(CAP)) {
                problems.add(new FieldProblem(key, "unknown field; known fields: " + CAP + ", " + CONCURRENCY));
            }
        }
        Optional<Integer> concurrency = Optional.empty();
        if (body.containsKey(CONCURRENCY)) {
            Object value = body.get(CONCURRENCY);
            if (isWhole(value) && ((Number) value).longValue() >= 1 && ((Number) value).longValue() <= TransferOptions.MAX_CONCURRENCY) {
                concurrency = Optional.of(((Number) value).intValue());
            }
            else {
                problems.add(new FieldProblem(CONCURRENCY, "must be a whole number from 1 to " + TransferOptions.MAX_CONCURRENCY
                        + (value == null ? "; it cannot be removed" : ", got " + value)));
            }
        }
        Optional<Long> cap = Optional.empty();
        if (body.containsKey(CAP)) {
            Object value = body.get(CAP);
            if (value == null) {
                cap = Optional.of(0L);
            }
            else if (value instanceof Number number) {
                cap = Optional.of(BandwidthCap.bytesPerSecond(CAP, number.doubleValue(), problems));
            }
            else {
                problems.add(new FieldProblem(CAP, "must be a number of megabits per second (0 or null for no cap), got '" + value + "'"));
            }
        }
        if (!problems.isEmpty()) {
            throw new InvalidRequestException(problems);
        }
        return new JobUpdate(concurrency, cap);
    }

    private static boolean isWhole(Object value) {
        return value instanceof Integer || value instanceof Long || value instanceof Short
                || value instanceof java.math.BigInteger big && big.bitLength() < 63;
    }
}
