package io.mover.server.bench;

import java.util.Locale;
import java.util.Optional;

import io.mover.bench.BenchReport;
import io.mover.core.engine.JobSummary;
import io.mover.core.service.JobView;

/**
 * A bench job as {@code /api/v1/benches} shows it (the same job is {@code /api/v1/jobs/{id}}).
 *
 * @param kind always {@code bench}
 * @param report the report (as {@code mover bench --output json} prints it) once the bench succeeded; lists leave it out
 * @param error why it failed, when it did
 * @param code the error's code ({@code NO_SPACE}, {@code ALREADY_EXISTS}...), when it failed
 */
public record BenchResponse(String id, String kind, String mode, String target, String state, String created, String ended,
        String error, String code, BenchReport report) {
    static BenchResponse of(JobView view, Optional<BenchReport> report) {
        Optional<JobSummary> summary = view.summary();
        String ended = summary.map(s -> s.started().plus(s.elapsed()).toString()).orElse(null);
        return new BenchResponse(view.id().value(), "bench", view.spec().options().bench().mode().name().toLowerCase(Locale.ROOT),
                io.mover.spi.EndpointUri.parse(view.spec().destination()).toString(), view.state().name(), view.created().toString(), ended,
                summary.flatMap(JobSummary::error).orElse(null), summary.flatMap(JobSummary::errorCode).map(Enum::name).orElse(null),
                report.orElse(null));
    }
}
