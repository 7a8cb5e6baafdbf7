package io.mover.server.schedule.web;

import java.time.Duration;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;

import io.mover.core.engine.JobSpec;
import io.mover.jobstore.schedule.InvalidScheduleException;
import io.mover.jobstore.schedule.OverlapPolicy;
import io.mover.jobstore.schedule.ScheduleDefinition;
import io.mover.jobstore.schedule.ScheduleTiming;
import io.mover.jobstore.schedule.ScheduleUpdate;
import io.mover.server.credential.CredentialStore;
import io.mover.server.job.web.SubmitJobRequest;
import io.mover.server.problem.FieldProblem;
import io.mover.server.problem.InvalidRequestException;
import io.mover.spi.ConfigSpec;

/**
 * The body of {@code POST /api/v1/schedules}, and of {@code PATCH /api/v1/schedules/{id}} where every field is
 * optional and replaces the schedule's (docs/rest.md, "Schedules").
 *
 * @param name unique: letters, digits, {@code .}, {@code _}, {@code -}
 * @param cron a cron expression: 5 fields ({@code "*&#47;15 * * * *"}) or 6 (seconds first); or give {@code interval}
 * @param interval {@code "15m"}, {@code "1h"}, {@code "1d"} or ISO-8601, 10s to 366d; or give {@code cron}
 * @param timeZone the zone the cron expression is read in; UTC by default
 * @param template the sync job each firing submits: a job of {@code POST /api/v1/jobs} ({@code kind} may be left out)
 * @param rpoTarget the recovery point promised, such as {@code "30m"}; {@code "none"} removes it in a PATCH
 * @param overlap {@code skip} (the default) or {@code queue-one}: what a firing does while the previous run goes on
 * @param paused create it paused, or pause and resume it in a PATCH
 */
public record ScheduleRequest(String name, String cron, String interval, String timeZone, SubmitJobRequest template, String rpoTarget,
        String overlap, Boolean paused) {

    /** A schedule to create, parsed: every bad field is reported at once. */
    record Create(String name, ScheduleTiming timing, JobSpec template, Optional<Duration> rpoTarget, OverlapPolicy overlap, boolean paused) {
    }

    Create toCreate(CredentialStore credentials) {
        List<FieldProblem> problems = new ArrayList<>();
        if (name == null || name.isBlank()) {
            problems.add(new FieldProblem("name", "is required: letters, digits, '.', '_' or '-', such as nightly-share"));
        }
        else {
            field(problems, () -> {
                ScheduleDefinition.checkName(name.trim());
                return null;
            });
        }
        if (cron == null && interval == null) {
            problems.add(new FieldProblem("interval", "give interval (such as 15m) or cron (such as '*/15 * * * *')"));
        }
        Optional<ScheduleTiming> timing = timing(problems, Optional.empty());
        Optional<JobSpec> spec = template == null ? missingTemplate(problems) : template(problems, credentials);
        Optional<Duration> target = rpoTarget == null ? Optional.empty() : rpoTarget(problems).orElse(Optional.empty());
        OverlapPolicy policy = overlap == null ? OverlapPolicy.SKIP : field(problems, () -> OverlapPolicy.parse(overlap)).orElse(OverlapPolicy.SKIP);
        if (!problems.isEmpty()) {
            throw new InvalidRequestException(problems);
        }
        return new Create(name.trim(), timing.orElseThrow(), spec.orElseThrow(), target, policy, Boolean.TRUE.equals(paused));
    }

    /** A PATCH: the fields present, parsed; {@code current} is the schedule's timing (a time zone alone re-reads its cron). */
    ScheduleUpdate toUpdate(CredentialStore credentials, ScheduleTiming current) {
        List<FieldProblem> problems = new ArrayList<>();
        Optional<String> newName = name == null ? Optional.empty() : field(problems, () -> {
            ScheduleDefinition.checkName(name.trim());
            return name.trim();
        });
        Optional<ScheduleTiming> timing = cron == null && interval == null && timeZone == null ? Optional.empty() : timing(problems, Optional.of(current));
        Optional<JobSpec> spec = template == null ? Optional.empty() : template(problems, credentials);
        Optional<Optional<Duration>> target = rpoTarget == null ? Optional.empty() : rpoTarget(problems);
        Optional<OverlapPolicy> policy = overlap == null ? Optional.empty() : field(problems, () -> OverlapPolicy.parse(overlap));
        if (!problems.isEmpty()) {
            throw new InvalidRequestException(problems);
        }
        boolean clear = target.isPresent() && target.get().isEmpty();
        return new ScheduleUpdate(newName, timing, spec, target.flatMap(value -> value), clear, policy, Optional.ofNullable(paused));
    }

    private Optional<ScheduleTiming> timing(List<FieldProblem> problems, Optional<ScheduleTiming> current) {
        if (cron != null && interval != null) {
            problems.add(new FieldProblem("interval", "give cron or interval, not both"));
            return Optional.empty();
        }
        Optional<ZoneId> zone = timeZone == null ? Optional.of(current.map(ScheduleTiming::zone).orElse(ZoneOffset.UTC))
                : field(problems, () -> ScheduleTiming.zone("timeZone", timeZone));
        if (zone.isEmpty()) {
            return Optional.empty();
        }
        if (interval != null) {
            return duration(problems, "interval", interval).flatMap(every -> field(problems, () -> ScheduleTiming.every(every)));
        }
        Optional<String> expression = Optional.ofNullable(cron).or(() -> current.flatMap(ScheduleTiming::cron));
        if (expression.isEmpty()) {
            problems.add(new FieldProblem("timeZone", "applies to a cron expression; this schedule runs every " + current.flatMap(ScheduleTiming::interval)
                    .map(Duration::toString).orElse("interval")));
            return Optional.empty();
        }
        return field(problems, () -> ScheduleTiming.cron(expression.get(), zone.get()));
    }

    private static Optional<JobSpec> missingTemplate(List<FieldProblem> problems) {
        problems.add(new FieldProblem("template", "is required: the sync job to run, as for POST /api/v1/jobs (source, destination, options)"));
        return Optional.empty();
    }

    /** The template as a job spec, its problems named {@code template.FIELD}; the kind is sync unless given. */
    private Optional<JobSpec> template(List<FieldProblem> problems, CredentialStore credentials) {
        SubmitJobRequest job = template.kind() != null ? template : new SubmitJobRequest("sync", template.source(), template.destination(),
                template.options(), template.sourceConfig(), template.destinationConfig(), template.sourceCredential(), template.destinationCredential());
        if (!job.kind().trim().toLowerCase(Locale.ROOT).equals("sync")) {
            problems.add(new FieldProblem("template.kind", "a schedule runs sync jobs: leave kind out or give sync, got '" + job.kind() + "'"));
            return Optional.empty();
        }
        try {
            return Optional.of(job.toSpec(credentials));
        }
        catch (InvalidRequestException e) {
            e.problems().forEach(problem -> problems.add(new FieldProblem("template." + problem.field(), problem.reason())));
            return Optional.empty();
        }
    }

    /** Empty when unparsable; a present empty when {@code "none"} (no target). */
    private Optional<Optional<Duration>> rpoTarget(List<FieldProblem> problems) {
        if (rpoTarget.isBlank() || rpoTarget.trim().equalsIgnoreCase("none")) {
            return Optional.of(Optional.empty());
        }
        return duration(problems, "rpoTarget", rpoTarget).map(Optional::of);
    }

    private static Optional<Duration> duration(List<FieldProblem> problems, String field, String text) {
        try {
            return Optional.of(ConfigSpec.parseDuration(text));
        }
        catch (IllegalArgumentException e) {
            problems.add(new FieldProblem(field, "expected a duration such as 15m, 1h, 1d or PT30M, got '" + text + "'"));
            return Optional.empty();
        }
    }

    /** The value, or the field's problem recorded. */
    private static <T> Optional<T> field(List<FieldProblem> problems, Supplier<T> parse) {
        try {
            return Optional.ofNullable(parse.get());
        }
        catch (InvalidScheduleException e) {
            problems.add(new FieldProblem(e.field(), e.reason()));
            return Optional.empty();
        }
    }
}
