package io.mover.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import io.mover.core.engine.SyncOptions;
import io.mover.core.engine.TransferOptions;
import io.mover.server.schedule.web.ScheduleResponse;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code mover schedules create NAME SRC DST --every 15m --rpo 30m}: a recurring sync on the server (POST /api/v1/schedules). */
@Command(name = "create", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = {"Creates a recurring sync on the server: every interval (or cron expression) it runs the sync that 'mover sync SRC DST'",
                "with the same options would, one job per firing, and reports the recovery point it keeps against --rpo."})
final class ScheduleCreateCommand extends ServerCommand {
    @Parameters(index = "0", paramLabel = "NAME", description = "A name for the schedule: letters, digits, '.', '_', '-'.")
    String name;

    @Parameters(index = "1", paramLabel = "SRC", description = "The directory to mirror (as the server sees it).")
    String source;

    @Parameters(index = "2", paramLabel = "DST", description = "The directory made equal to SRC.")
    String destination;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Timing timing;

    static final class Timing {
        @Option(names = "--every", paramLabel = "DURATION", converter = SyncFlags.AgeConverter.class,
                description = "Fire every DURATION (15m, 1h, 1d), 10s to 366d; the first run starts at once.")
        Duration every;

        @Option(names = "--cron", paramLabel = "EXPR",
                description = "Fire at the times of a cron expression: 5 fields (minute hour day month weekday, '*/15 * * * *') or 6 (seconds first).")
        String cron;
    }

    @Option(names = "--time-zone", paramLabel = "ZONE", description = "The zone --cron is read in (Europe/Paris). Default: UTC.")
    String timeZone;

    @Option(names = "--rpo", paramLabel = "DURATION", converter = SyncFlags.AgeConverter.class,
            description = "The recovery point promised: the last successful run must have started at most this long ago (30m, 2h).")
    Duration rpo;

    @Option(names = "--overlap", paramLabel = "skip|queue-one", defaultValue = "skip",
            description = "When a firing finds the previous run still going: skip it, or queue one run that starts when it ends. Default: ${DEFAULT-VALUE}.")
    String overlap;

    @Option(names = "--paused", description = "Create it paused (mover schedules resume starts it).")
    boolean paused;

    @Option(names = "--source-credential", paramLabel = "NAME", description = "A credential of the server (mover.credentials.NAME.*) for SRC.")
    String sourceCredential;

    @Option(names = "--dest-credential", paramLabel = "NAME", description = "A credential of the server for DST.")
    String destinationCredential;

    @Mixin
    SyncFlags sync = new SyncFlags();

    @Mixin
    TransferFlags flags = new TransferFlags();

    ScheduleCreateCommand(CliContext context) {
        super(context);
    }

    @Override
    int run(ServerClient client, PrintWriter out) {
        TransferOptions options = flags.options().sync(sync.options()).build();
        options.validate();
        if (options.sync().deletes() == SyncOptions.DeleteMode.PROMPT) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "--delete-destination prompt needs a terminal at each run; use true with --max-delete");
        }
        RemoteCopy.SubmitBody job = RemoteCopy.SubmitBody.sync(source, destination, options, flags.sourceConfig, flags.destinationConfig);
        Map<String, Object> template = new LinkedHashMap<>();
        template.put("source", job.source());
        template.put("destination", job.destination());
        template.put("options", job.options());
        template.put("sourceConfig", job.sourceConfig());
        template.put("destinationConfig", job.destinationConfig());
        if (sourceCredential != null) {
            template.put("sourceCredential", sourceCredential);
        }
        if (destinationCredential != null) {
            template.put("destinationCredential", destinationCredential);
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", name);
        if (timing.cron != null) {
            body.put("cron", timing.cron);
        }
        else {
            body.put("interval", timing.every.toString());
        }
        if (timeZone != null) {
            body.put("timeZone", timeZone);
        }
        if (rpo != null) {
            body.put("rpoTarget", rpo.toString());
        }
        body.put("overlap", overlap);
        body.put("paused", paused);
        body.put("template", template);
        ScheduleResponse created = client.createSchedule(body);
        print(out, created, "schedule " + created.name() + " created (" + created.id() + "): " + SchedulesCommand.timing(created)
                + (created.paused() ? ", paused" : ", next run " + created.nextRun()) + ", RPO " + SchedulesCommand.rpo(created));
        return ExitCode.SUCCESS.code();
    }
}
