package io.mover.cli;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code --cap-mbps}, {@code mover jobs pause} and {@code resume} against the real server's endpoints. */
@Timeout(120)
class ServerControlsTest {
    @RegisterExtension
    static final ServerPerClass server = new ServerPerClass();

    @TempDir
    Path temp;


    /** Eight files of 256 KiB: at 8 Mbit/s (1 MB/s), one at a time, about two seconds of copying. */
    private Path tree() throws IOException {
        Path source = Files.createDirectories(temp.resolve("src"));
        Random random = new Random(11);
        for (int i = 0; i < 8; i++) {
            byte[] data = new byte[256 * 1024];
            random.nextBytes(data);
            Files.write(source.resolve("f" + i + ".bin"), data);
        }
        return source;
    }

    private static JsonNode job(String id) {
        CliRun show = CliRun.of("jobs", "show", id, "--server", server.url(), "--output", "json");
        assertThat(show.exitCode()).as(show.err()).isZero();
        return JsonOutput.MAPPER.readTree(show.out());
    }

    /** Polls the job, bounded, until it is in {@code state}; returns the last view. */
    private static JsonNode awaitState(String id, String state) throws InterruptedException {
        JsonNode view = job(id);
        for (int i = 0; i < 300 && !view.get("state").asString().equals(state); i++) {
            Thread.sleep(50);
            view = job(id);
        }
        assertThat(view.get("state").asString()).as(view.toString()).isEqualTo(state);
        return view;
    }

    /** Files visible under their final names (temporaries start with .mover.). */
    private static long committed(Path destination) throws IOException {
        if (!Files.isDirectory(destination)) {
            return 0;
        }
        try (var files = Files.list(destination)) {
            return files.filter(f -> !f.getFileName().toString().startsWith(".mover.")).count();
        }
    }

    @Test
    void aCappedJobPausesAtAFileBoundaryAndResumesToTheSameTree() throws Exception {
        Path source = tree();
        Path destination = temp.resolve("dst");
        String body = JsonOutput.MAPPER.writeValueAsString(Map.of("kind", "copy", "source", source.toString(),
                "destination", destination.toString(), "options", Map.of("concurrency", 1, "bandwidthCapMbps", 8)));
        HttpResponse<String> created = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(server.url() + "/api/v1/jobs"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        String id = JsonOutput.MAPPER.readTree(created.body()).get("id").asString();

        CliRun pause = CliRun.of("jobs", "pause", id, "--server", server.url());
        assertThat(pause.exitCode()).as(pause.err()).isZero();
        assertThat(pause.out()).startsWith("job " + id + ": ");
        awaitState(id, "PAUSED");
        long doneWhenPaused = committed(destination);
        assertThat(doneWhenPaused).isLessThan(8);
        Thread.sleep(300);
        assertThat(committed(destination)).as("no file starts while paused").isEqualTo(doneWhenPaused);

        CliRun resume = CliRun.of("jobs", "resume", id, "--server", server.url());
        assertThat(resume.exitCode()).as(resume.err()).isZero();
        awaitState(id, "SUCCEEDED");
        assertThat(Trees.describe(destination)).isEqualTo(Trees.describe(source));
    }

    @Test
    void capMbpsReachesTheServer() throws IOException {
        Path source = tree();

        CliRun run = CliRun.of("copy", "--server", server.url(), "--cap-mbps", "800", source.toString(), temp.resolve("dst").toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        String id = run.err().replaceAll("(?s).*mover: job ([0-9a-f-]{36}) submitted.*", "$1");
        assertThat(job(id).get("settings").get("bandwidthCapMbps").asDouble()).isEqualTo(800.0);
    }
}
