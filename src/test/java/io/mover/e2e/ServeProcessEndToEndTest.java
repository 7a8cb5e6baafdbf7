package io.mover.e2e;

import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code mover serve} as the README's quick start runs it: a separate JVM on loopback, a job submitted
 * over REST copies a real tree, and SIGTERM stops the server.
 */
@Timeout(180)
class ServeProcessEndToEndTest {
    @TempDir
    Path dir;

    @Test
    void aJobSubmittedOverRestCopiesATreeAndSigtermStopsTheServer() throws Exception {
        Path source = Trees.sample(dir.resolve("src"));
        Path destination = dir.resolve("dst");
        int port = ServerProcess.freePort();
        URI base = URI.create("http://127.0.0.1:" + port);
        ServerProcess server = ServerProcess.start(dir, "server", "--port", Integer.toString(port), "--data-dir", dir.resolve("data").toString());
        try {
            server.awaitUp(base);
            HttpResponse<String> created = ServerProcess.post(base.resolve("/api/v1/jobs"),
                    Map.of("kind", "copy", "source", source.toString(), "destination", destination.toString()));
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            URI job = base.resolve(created.headers().firstValue("Location").orElseThrow());

            JsonNode view = ServerProcess.awaitEnd(job, 600);
            assertThat(view.get("state").asString()).as(view.toString()).isEqualTo("SUCCEEDED");
            assertThat(view.get("result").get("filesTransferred").asLong()).isEqualTo(56);
            assertThat(Trees.fingerprint(destination)).isEqualTo(Trees.fingerprint(source));

            new ProcessBuilder("kill", "-TERM", Long.toString(server.process().pid())).start().waitFor(10, TimeUnit.SECONDS);
            assertThat(server.process().waitFor(60, TimeUnit.SECONDS)).as(server.logs()).isTrue();
            assertThat(server.logs()).contains("mover: serving http://127.0.0.1:" + port + "/api/v1").doesNotContain("ERROR");
        }
        finally {
            server.process().destroyForcibly();
        }
    }

    @Test
    void offLoopbackWithoutTokensItRefusesToStartInOneLine() throws Exception {
        ServerProcess server = ServerProcess.start(dir, "server", "--address", "0.0.0.0", "--port", Integer.toString(ServerProcess.freePort()),
                "--data-dir", dir.resolve("data").toString());
        assertThat(server.process().waitFor(60, TimeUnit.SECONDS)).isTrue();

        assertThat(server.process().exitValue()).as(server.logs()).isEqualTo(1);
        assertThat(server.lastLine()).startsWith("mover: the server did not start: refusing to start").contains("mover.tokens[0].token");
    }
}
