package io.mover.server.bench;

import io.mover.bench.BenchReport;

/**
 * A bench job as the API shows it.
 *
 * @param kind always {@code bench}
 * @param report the report (as {@code mover bench --output json} prints it) once the bench succeeded
 * @param error why it failed, when it did
 * @param code the error's code ({@code NO_SPACE}, {@code ALREADY_EXISTS}...), when it failed
 */
public record BenchResponse(String id, String kind, String mode, String target, String state, String created, String ended,
        String error, String code, BenchReport report) {
    static BenchResponse of(BenchJobs.Run run) {
        return new BenchResponse(run.id, "bench", run.mode, run.target, run.state.name(), run.created.toString(),
                run.ended == null ? null : run.ended.toString(), run.error, run.code, run.report);
    }
}
