package io.mover.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.mover.server.MoverServerApplication;
import org.springframework.context.ConfigurableApplicationContext;

/** A real mover server in this JVM, on a free loopback port, for the client tests. */
record TestServer(ConfigurableApplicationContext context, String url) implements AutoCloseable {
    static TestServer start(Path dataDir, String... extra) {
        List<String> args = new ArrayList<>(List.of("--mover.port=0", "--mover.data-dir=" + dataDir, "--spring.main.banner-mode=off",
                "--logging.level.root=warn"));
        args.addAll(List.of(extra));
        ConfigurableApplicationContext context = MoverServerApplication.start(args.toArray(String[]::new));
        return new TestServer(context, "http://127.0.0.1:" + context.getEnvironment().getProperty("local.server.port"));
    }

    @Override
    public void close() {
        context.close();
    }
}
