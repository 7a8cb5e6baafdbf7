package io.mover.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import io.mover.server.schedule.web.ScheduleResponse;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code mover schedules ...}: the recurring syncs of a mover server (issue 4, docs/cli.md). */
@Command(name = "schedules", mixinStandardHelpOptions = true, synopsisSubcommandLabel = "COMMAND",
        description = {"Creates, lists, shows, pauses, resumes and deletes the recurring syncs of a mover server",
                "(default http://127.0.0.1:8080, or $MOVER_SERVER), and shows the recovery point (RPO) each one keeps."})
final class SchedulesCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    static CommandLine tree(CliContext context) {
        CommandLine schedules = new CommandLine(new SchedulesCommand());
        schedules.addSubcommand(new ScheduleCreateCommand(context));
        for (boolean one : new boolean[] {false, true}) {
            CommandLine verb = new CommandLine(new ScheduleReadCommand(context, one));
            verb.getCommandSpec().usageMessage().description(one
                    ? "Shows a schedule: its timing, sync, RPO achieved against its target, last runs, and its latest events."
                    : "Lists the server's schedules: timing, next run, last run's state, RPO achieved of target.");
            schedules.addSubcommand(ScheduleReadCommand.verb(one), verb);
        }
        for (String action : java.util.List.of("pause", "resume", "delete")) {
            CommandLine verb = new CommandLine(new ScheduleActionCommand(context, action));
            verb.getCommandSpec().usageMessage().description(ScheduleActionCommand.VERBS.get(action));
            schedules.addSubcommand(action, verb);
        }
        return schedules;
    }

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCode.USAGE.code();
    }

    /** One schedule a line: name, timing, next run, last run, RPO. */
    static void table(PrintWriter out, List<ScheduleResponse> schedules) {
        if (schedules.isEmpty()) {
            out.println("no schedules");
            return;
        }
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"NAME", "EVERY", "NEXT RUN", "LAST RUN", "RPO", "SOURCE → DESTINATION"});
        for (ScheduleResponse schedule : schedules) {
            rows.add(new String[] {schedule.name(), timing(schedule), schedule.paused() ? "paused" : time(schedule.nextRun()),
                    schedule.lastRun() == null ? "-" : schedule.lastRun().state(), rpo(schedule),
                    schedule.template().source() + " → " + schedule.template().destination()});
        }
        TextTable.print(out, rows);
    }

    /** The details of one schedule and its latest events. */
    static void details(PrintWriter out, ScheduleResponse schedule, ScheduleResponse.EventPage events) {
        out.println("schedule " + schedule.name() + " (" + schedule.id() + ")" + (schedule.paused() ? ", paused" : ""));
        out.println("  runs        " + timing(schedule) + ", overlap " + schedule.overlap() + (schedule.paused() ? "" : ", next " + time(schedule.nextRun())));
        out.println("  sync        " + schedule.template().source() + " → " + schedule.template().destination());
        out.println("  RPO         " + rpo(schedule));
        out.println("  last run    " + run(schedule.lastRun()));
        out.println("  last success " + run(schedule.lastSuccess()));
        out.println("  firings     " + schedule.runs().fired() + " started, " + schedule.runs().skipped() + " skipped (overlap), "
                + schedule.runs().submitFailures() + " failed to start" + (schedule.queued() ? "; one waits for the running job" : ""));
        if (events != null && !events.items().isEmpty()) {
            out.println("  events");
            events.items().forEach(event -> out.println("    " + time(event.at()) + "  " + event.kind() + "  " + event.message()));
        }
    }

    static String timing(ScheduleResponse schedule) {
        if (schedule.cron() != null) {
            return "cron '" + schedule.cron() + "' " + schedule.timeZone();
        }
        return Units.duration(Duration.parse(schedule.interval()));
    }

    /** {@code 3m12s of 30m (RPO_MET)}. */
    static String rpo(ScheduleResponse schedule) {
        ScheduleResponse.RpoResponse rpo = schedule.rpo();
        String achieved = Units.duration(Duration.ofMillis((long) (rpo.achievedSeconds() * 1000)));
        return rpo.targetSeconds() == null ? achieved + " (no target)"
                : achieved + " of " + Units.duration(Duration.ofMillis((long) (rpo.targetSeconds() * 1000))) + " (" + rpo.state() + ")";
    }

    private static String run(ScheduleResponse.RunResponse run) {
        return run == null ? "-" : run.jobId() + " " + run.state() + (run.started() == null ? "" : ", started " + time(run.started()));
    }

    private static String time(Instant instant) {
        return instant == null ? "-" : instant.truncatedTo(ChronoUnit.SECONDS).toString();
    }
}
