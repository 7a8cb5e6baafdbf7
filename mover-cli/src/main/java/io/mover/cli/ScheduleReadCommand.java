package io.mover.cli;

import java.io.PrintWriter;
import java.util.Map;

import io.mover.server.schedule.web.ScheduleResponse;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code mover schedules list} and {@code mover schedules show NAME}: one class, as they differ only in what they fetch. */
@Command(mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true)
final class ScheduleReadCommand extends ServerCommand {
    private static final int EVENTS_SHOWN = 10;

    private final boolean one;

    @Parameters(arity = "0..1", paramLabel = "NAME", description = "The schedule's name or id (show only).")
    String name;

    ScheduleReadCommand(CliContext context, boolean one) {
        super(context);
        this.one = one;
    }

    @Override
    int run(ServerClient client, PrintWriter out) {
        if (one == (name == null)) {
            spec.commandLine().getErr().println(one ? "mover: give the schedule's name or id (mover schedules list shows them)"
                    : "mover: schedules list takes no name; use mover schedules show NAME");
            return ExitCode.USAGE.code();
        }
        if (one) {
            ScheduleResponse schedule = client.schedule(name);
            ScheduleResponse.EventPage events = client.scheduleEvents(schedule.id(), EVENTS_SHOWN);
            if (common.json()) {
                print(out, Map.of("schedule", schedule, "events", events.items()), "");
            }
            else {
                SchedulesCommand.details(out, schedule, events);
            }
            return ExitCode.SUCCESS.code();
        }
        ScheduleResponse.SchedulePage page = client.schedules();
        if (common.json()) {
            print(out, page, "");
        }
        else {
            SchedulesCommand.table(out, page.items());
        }
        return ExitCode.SUCCESS.code();
    }

    /** The command's name: the two differ in what they fetch. */
    static String verb(boolean one) {
        return one ? "show" : "list";
    }
}
