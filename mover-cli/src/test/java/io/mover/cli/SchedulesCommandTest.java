package io.mover.cli;

import java.io.IOException;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code mover schedules ...} and {@code mover jobs list --schedule} against a real server in this JVM, on loopback. */
@Timeout(120)
class SchedulesCommandTest {
    @RegisterExtension
    static final ServerPerClass server = new ServerPerClass();

    @TempDir
    Path temp;


    @Test
    void aScheduleIsCreatedRunsAndIsShownPausedAndDeleted() throws IOException, InterruptedException {
        Path source = Trees.sample(temp.resolve("src"));
        Path destination = temp.resolve("dst");

        CliRun created = CliRun.of("schedules", "create", "nightly", source.toString(), destination.toString(), "--every", "1h", "--rpo", "2h",
                "--overlap", "queue-one", "--delete-destination", "true", "--max-delete", "10", "--server", server.url());
        assertThat(created.exitCode()).as(created.err()).isZero();
        assertThat(created.out()).startsWith("schedule nightly created (").contains("1h00m00s", "of 2h00m00s (RPO_MET)");

        JsonNode job = awaitJobOfSchedule("nightly");
        assertThat(job.get("state").asString()).isEqualTo("SUCCEEDED");
        assertThat(Trees.describe(destination)).isEqualTo(Trees.describe(source));

        CliRun list = CliRun.of("schedules", "list", "--server", server.url());
        assertThat(list.out()).contains("NAME", "nightly", "SUCCEEDED", "(RPO_MET)", source + " → " + destination);
        CliRun show = CliRun.of("schedules", "show", "nightly", "--server", server.url());
        assertThat(show.exitCode()).as(show.err()).isZero();
        assertThat(show.out()).contains("schedule nightly", "overlap queue-one", "RPO ", "last success " + job.get("id").asString(), "CREATED", "FIRED");

        assertThat(CliRun.of("schedules", "pause", "nightly", "--server", server.url()).out()).contains("schedule nightly: paused");
        assertThat(CliRun.of("schedules", "resume", "nightly", "--server", server.url()).out()).contains("schedule nightly: active, next run");
        assertThat(CliRun.of("schedules", "delete", "nightly", "--server", server.url()).out()).contains("schedule nightly deleted");
        CliRun gone = CliRun.of("schedules", "show", "nightly", "--server", server.url());
        assertThat(gone.exitCode()).isEqualTo(ExitCode.NOT_FOUND.code());
        assertThat(gone.errLines()).singleElement().asString().contains("no schedule 'nightly'");
    }

    @Test
    void aBadScheduleIsOneLineNamingTheField() throws IOException {
        Path source = Trees.sample(temp.resolve("src"));

        CliRun run = CliRun.of("schedules", "create", "bad", source.toString(), temp.resolve("dst").toString(), "--cron", "*/15 * * *",
                "--server", server.url());

        assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE.code());
        assertThat(run.errLines()).singleElement().asString().contains("cron").contains("use 5");
        CliRun neither = CliRun.of("schedules", "create", "bad", source.toString(), temp.resolve("dst").toString(), "--server", server.url());
        assertThat(neither.exitCode()).isEqualTo(ExitCode.USAGE.code());
        assertThat(neither.err()).contains("--every", "--cron");
    }

    private static JsonNode awaitJobOfSchedule(String name) throws InterruptedException {
        for (int attempt = 0; attempt < 600; attempt++) {
            CliRun jobs = CliRun.of("jobs", "list", "--schedule", name, "--output", "json", "--server", server.url());
            assertThat(jobs.exitCode()).as(jobs.err()).isZero();
            JsonNode items = JsonOutput.MAPPER.readTree(jobs.out()).get("items");
            if (!items.isEmpty() && items.get(0).get("result") != null) {
                assertThat(items.size()).isEqualTo(1);
                return items.get(0);
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the schedule's job did not end in 60 s");
    }
}
