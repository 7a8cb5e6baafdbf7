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

/** {@code mover schedules pause|resume|delete NAME}: one request about the schedule, then what became of it. */
@Command(mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true)
final class ScheduleActionCommand implements Callable<Integer>, CliCommand {
    enum Action {
        PAUSE("pause", "Pauses a schedule: it fires no more (a run in progress goes on) until resumed."),
        RESUME("resume", "Resumes a paused schedule: an interval overdue fires at once, a cron expression at its next time."),
        DELETE("delete", "Deletes a schedule and its events; a run in progress goes on, and its jobs stay listed.");

        private final String verb;
        private final String description;

        Action(String verb, String description) {
            this.verb = verb;
            this.description = description;
        }

        String verb() {
            return verb;
        }

        String description() {
            return description;
        }
    }

    private final CliContext context;
    private final Action action;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "NAME", description = "The schedule's name or id (from mover schedules list).")
    String name;

    @Mixin
    ServerOptions server = new ServerOptions();

    @Mixin
    CommonOptions common = new CommonOptions();

    ScheduleActionCommand(CliContext context, Action action) {
        this.context = requireNonNull(context, "context is null");
        this.action = requireNonNull(action, "action is null");
    }

    @Override
    public CommonOptions common() {
        return common;
    }

    @Override
    public Integer call() {
        CliLogging.configureClient(common.effectiveLogLevel());
        ServerClient client = new ServerClient(server.target(context.environment()));
        PrintWriter out = spec.commandLine().getOut();
        if (action == Action.DELETE) {
            client.deleteSchedule(name);
            out.println(common.json() ? "{\"deleted\":" + ServerClient.JSON.writeValueAsString(name) + "}" : "schedule " + name + " deleted");
        }
        else {
            ScheduleResponse schedule = client.scheduleAction(name, action.verb());
            out.println(common.json() ? ServerClient.JSON.writeValueAsString(schedule) : "schedule " + schedule.name() + ": "
                    + (schedule.paused() ? "paused" : "active, next run " + schedule.nextRun()));
        }
        out.flush();
        return ExitCode.SUCCESS.code();
    }
}
