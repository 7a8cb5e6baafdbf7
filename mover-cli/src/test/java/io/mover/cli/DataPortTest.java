package io.mover.cli;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.mover.server.dataport.DataPort;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The server's data port: a running {@code mover serve} receives {@code mover copy SRC tcp://...} into its
 * configured root through the same receiver as {@code mover receive}, and refuses to start open to the network.
 */
@Timeout(90)
class DataPortTest {
    @TempDir
    Path temp;

    @Test
    void aCopyIntoARunningServersDataPortLandsByteForByteUnderItsRoot() throws Exception {
        Path source = Trees.sample(temp.resolve("src"));
        Files.write(source.resolve("a/large.bin"), new java.util.Random(3).ints(3 << 20).collect(() -> new java.io.ByteArrayOutputStream(),
                (out, value) -> out.write(value), (a, b) -> a.writeBytes(b.toByteArray())).toByteArray());
        Path root = temp.resolve("root");
        try (TestServer server = TestServer.start(temp.resolve("data"), "--mover.data-port.enabled=true", "--mover.data-port.listen=127.0.0.1:0",
                "--mover.data-port.root=" + root, "--mover.data-port.token=port-token", "--mover.data-port.tls.enabled=true")) {
            DataPort.View view = server.context().getBean(DataPort.class).view().orElseThrow();
            String nodes = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(server.url() + "/api/v1/nodes")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            assertThat(nodes).contains("\"dataPort\":{\"address\":\"" + view.address() + "\",\"tls\":true,\"fingerprint\":\"" + view.fingerprint() + "\"}");
            Matcher port = Pattern.compile(":(\\d+)$").matcher(view.address());
            assertThat(port.find()).isTrue();

            CliRun run = CliRun.withEnvironment(Map.of("MOVER_PEER_TOKEN", "port-token"), "copy", "--tls-fingerprint", view.fingerprint(),
                    source.toString(), "tcp://127.0.0.1:" + port.group(1) + "/sub");

            assertThat(run.exitCode()).as(run.err()).isZero();
            assertThat(Trees.describe(root.resolve("sub"))).isEqualTo(Trees.describe(source));
            assertThat(Files.readAllBytes(root.resolve("sub/a/large.bin"))).isEqualTo(Files.readAllBytes(source.resolve("a/large.bin")));
        }
    }

    @Test
    void offLoopbackWithoutATokenTheServerRefusesToStart() throws IOException {
        assertThatThrownBy(() -> TestServer.start(temp.resolve("data"), "--mover.data-port.enabled=true", "--mover.data-port.listen=0.0.0.0:0",
                "--mover.data-port.root=" + temp.resolve("root")))
                .rootCause().hasMessageContaining("mover.data-port.listen=0.0.0.0:0 is not a loopback address and no token is set");
        assertThat(temp.resolve("root")).doesNotExist();
    }

    @Test
    void offByDefault() {
        try (TestServer server = TestServer.start(temp.resolve("data"))) {
            assertThat(server.context().getBean(DataPort.class).view()).isEmpty();
        }
    }
}
