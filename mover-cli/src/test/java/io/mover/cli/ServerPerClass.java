package io.mover.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One {@link TestServer} for a test class, on its own data directory, stopped and removed after the class:
 * {@code @RegisterExtension static final ServerPerClass server = new ServerPerClass("--mover.x=y");}. Classes do
 * not share one: closing a Spring context disposes Reactor Netty's shared resources under the other servers.
 */
final class ServerPerClass implements BeforeAllCallback, AfterAllCallback {
    private final String[] settings;
    private Path dataDir;
    private TestServer server;

    ServerPerClass(String... settings) {
        this.settings = settings.clone();
    }

    String url() {
        return server.url();
    }

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        dataDir = Files.createTempDirectory("mover-cli-server-");
        server = TestServer.start(dataDir, settings);
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        try {
            if (server != null) {
                server.close();
            }
        }
        finally {
            try (Stream<Path> tree = Files.walk(dataDir)) {
                tree.sorted(Comparator.reverseOrder()).forEach(path -> {
                    try {
                        Files.deleteIfExists(path);
                    }
                    catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
            }
        }
    }
}
