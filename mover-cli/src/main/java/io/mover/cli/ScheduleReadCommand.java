package io.mover.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

import io.mover.server.schedule.web.ScheduleResponse;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import static java.util.Objects.requireNonNull;

/** {@code mover schedules list} and {@code mover schedules show NAME}: one class, as they differ only in what they fetch. */
@Command(mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true)
final class ScheduleReadCommand implements Callable<Integer>, CliCommand {
    private static final int EVENTS_SHOWN = 10;

    private final CliContext context;
    private final boolean one;

    @Spec
    CommandSpec spec;

    @Parameters(arity = "0..1", paramLabel = "NAME", description = "The schedule's name or id (show only).")
    String name;

    @Mixin
    ServerOptions server = new ServerOptions();

    @Mixin
    CommonOptions common = new CommonOptions();

    ScheduleReadCommand(CliContext context, boolean one) {
        this.context = requireNonNull(context, "context is null");
        this.one = one;
    }

    @Override
    public CommonOptions common() {
        return common;
    }

    @Override
    public Integer call() {
        CliLogging.configureClient(common.effectiveLogLevel());
        if (one == (name == null)) {
            spec.commandLine().getErr().println(one ? "mover: give the schedule's name or id (mover schedules list shows them)"
                    : "mover: schedules list takes no name; use mover schedules show NAME");
            return ExitCode.USAGE.code();
        }
        ServerClient client = new ServerClient(server.target(context.environment()));
        PrintWriter out = spec.commandLine().getOut();
        if (one) {
            ScheduleResponse schedule = client.schedule(name);
            ScheduleResponse.EventPage events = client.scheduleEvents(schedule.id(), EVENTS_SHOWN);
            if (common.json()) {
                out.println(ServerClient.JSON.writeValueAsString(java.util.Map.of("schedule", schedule, "events", events.items())));
            }
            else {
                SchedulesCommand.details(out, schedule, events);
            }
        }
        else {
            ScheduleResponse.SchedulePage page = client.schedules();
            if (common.json()) {
                out.println(ServerClient.JSON.writeValueAsString(page));
            }
            else {
                SchedulesCommand.table(out, page.items());
            }
        }
        out.flush();
        return ExitCode.SUCCESS.code();
    }

    /** The command's name and description depend on which of the two it is. */
    static String verb(boolean one) {
        return one ? "show" : "list";
    }
}
