package io.mover.cli;

import java.io.PrintWriter;
import java.util.Map;

import io.mover.server.schedule.web.ScheduleResponse;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code mover schedules pause|resume|delete NAME}: one request about the schedule, then what became of it. */
@Command(mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true)
final class ScheduleActionCommand extends ServerCommand {
    /** The verbs, with their descriptions. */
    static final Map<String, String> VERBS = Map.of(
            "pause", "Pauses a schedule: it fires no more (a run in progress goes on) until resumed.",
            "resume", "Resumes a paused schedule: an interval overdue fires at once, a cron expression at its next time.",
            "delete", "Deletes a schedule and its events; a run in progress goes on, and its jobs stay listed.");

    private final String verb;

    @Parameters(index = "0", paramLabel = "NAME", description = "The schedule's name or id (from mover schedules list).")
    String name;

    ScheduleActionCommand(CliContext context, String verb) {
        super(context);
        this.verb = verb;
    }

    @Override
    int run(ServerClient client, PrintWriter out) {
        if (verb.equals("delete")) {
            client.deleteSchedule(name);
            print(out, Map.of("deleted", name), "schedule " + name + " deleted");
            return ExitCode.SUCCESS.code();
        }
        ScheduleResponse schedule = client.scheduleAction(name, verb);
        print(out, schedule, "schedule " + schedule.name() + ": " + (schedule.paused() ? "paused" : "active, next run " + schedule.nextRun()));
        return ExitCode.SUCCESS.code();
    }
}
