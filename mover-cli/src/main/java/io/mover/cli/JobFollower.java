package io.mover.cli;

import java.io.PrintWriter;
import java.time.Duration;

import io.mover.core.engine.JobState;
import io.mover.core.engine.JobSummary;
import io.mover.server.job.web.JobResponse;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

import static java.util.Objects.requireNonNull;

/**
 * Follows a job on a server to its end through its event stream, feeding the progress to a
 * {@link JobOutput} as a standalone run would. A stream that breaks before the end (a proxy timeout,
 * a restarted connection) is reopened a few times; the job itself runs on regardless.
 */
final class JobFollower {
    static final int REOPENS = 5;
    private static final Duration REOPEN_PAUSE = Duration.ofSeconds(1);

    private final ServerClient client;
    private final ServerEvents events;
    private final PrintWriter err;
    private volatile JobResponse latest;

    JobFollower(ServerClient client, ServerEvents events, PrintWriter err) {
        this.client = requireNonNull(client, "client is null");
        this.events = requireNonNull(events, "events is null");
        this.err = requireNonNull(err, "err is null");
    }

    /** Blocks until job {@code id} has ended and returns its summary; progress goes to {@code output}. */
    JobSummary follow(String id, JobOutput output) throws InterruptedException {
        for (int attempt = 0; ; attempt++) {
            try {
                JobResponse last = events.follow(id, this::onState, progress -> output.onProgress(RestRecords.progress(progress, latest)));
                if (last != null && RestRecords.state(last.state()).isTerminal()) {
                    return RestRecords.summary(last);
                }
            }
            catch (MoverException e) {
                if (e.code() != ErrorCode.CONNECTION_LOST) {
                    throw e;
                }
                // a broken stream; if the server itself is gone, the get below says so
            }
            // the stream ended early: the job's own record says whether it has ended meanwhile
            JobResponse now = client.get(id);
            if (RestRecords.state(now.state()).isTerminal()) {
                return RestRecords.summary(now);
            }
            if (attempt == REOPENS) {
                throw new MoverException(ErrorCode.CONNECTION_LOST, "lost the event stream of job " + id + " on " + client.base()
                        + " " + (REOPENS + 1) + " times; it keeps running there (mover jobs watch " + id + ")");
            }
            Thread.sleep(REOPEN_PAUSE);
        }
    }

    private void onState(JobResponse job) {
        JobResponse previous = latest;
        latest = job;
        JobState state = RestRecords.state(job.state());
        if (state == JobState.PAUSED && (previous == null || !job.state().equals(previous.state()))) {
            err.println("mover: job " + job.id() + " is paused on " + client.base() + "; mover jobs resume " + job.id() + " continues it");
            err.flush();
        }
    }
}
