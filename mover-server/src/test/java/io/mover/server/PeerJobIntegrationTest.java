package io.mover.server;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import io.mover.core.plugin.PluginRegistry;
import io.mover.core.receive.ReceiverLauncher;
import io.mover.server.job.web.JobResponse;
import io.mover.spi.PeerReceiver;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A server job to a TCP peer with {@code --codec auto} (the default): the tree lands byte for byte in a real receiver on
 * loopback, and the job's summary and progress say which codec carried the blocks and why, as the CLI's do, not merely "auto".
 */
class PeerJobIntegrationTest extends ServerTestSupport {
    private static final String PEER_TOKEN = "peer-token-0123456789abcdef";

    @Autowired
    private PluginRegistry plugins;

    @Test
    void aJobOverALinkSaysWhichCodecAutoChoseAndWhy() throws Exception {
        Path source = tree(temp.resolve("src"));
        Path root = Files.createDirectories(temp.resolve("root"));
        ReceiverLauncher.Request request = new ReceiverLauncher.Request(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), root.toString(),
                false, false, Map.of("token", PEER_TOKEN), Files.createDirectories(temp.resolve("scratch")));
        try (PeerReceiver receiver = ReceiverLauncher.listen(plugins, request, System.getLogger(getClass().getName()))) {
            JobResponse job = client.post().uri("/api/v1/jobs").contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(Map.of("kind", "copy", "source", source.toString(),
                            "destination", "tcp://127.0.0.1:" + receiver.address().getPort() + "/inbox",
                            "destinationConfig", Map.of("token", PEER_TOKEN, "streams", 2)))
                    .exchange().expectStatus().isCreated().expectBody(JobResponse.class).returnResult().getResponseBody();
            assertThat(job).isNotNull();
            JobResponse ended = awaitEnd(job.id());
            assertThat(ended.state()).as(String.valueOf(ended.errors())).isEqualTo("SUCCEEDED");
            assertThat(ended.spec().options().codec()).isEqualTo("auto");
            assertThat(ended.result().codec()).startsWith("auto (blocks: ").contains("switches; last choice ");
            // the last progress says it too (recorded by the unit as it runs and when it ends)
            assertThat(ended.progress().codec()).isEqualTo(ended.result().codec());
        }
        assertThat(hashes(root.resolve("inbox"))).isEqualTo(hashes(source));
    }
}
