package io.mover.plugins.gen;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;

import io.mover.spi.EndpointUri;
import io.mover.spi.PluginContext;
import io.mover.spi.RelativePath;
import io.mover.spi.Source;
import io.mover.spi.SourceReader;

/** Opening gen:// sources and reading their files whole, for the tests. */
final class GenFixtures {
    private static final GenSourceFactory FACTORY = new GenSourceFactory();

    private GenFixtures() {}

    static Source open(String uri) {
        return open(uri, Map.of());
    }

    static Source open(String uri, Map<String, String> config) {
        return FACTORY.create(EndpointUri.parse(uri), FACTORY.configSpec().parse(config),
                new PluginContext("test", Path.of(System.getProperty("java.io.tmpdir")), Clock.systemUTC(), System.getLogger("test")));
    }

    static byte[] read(Source source, String path) {
        try (SourceReader reader = source.open(RelativePath.of(path))) {
            ByteBuffer all = ByteBuffer.allocate((int) reader.size());
            while (all.hasRemaining() && reader.read(all.position(), all) > 0) {
                // the reader advances the buffer; the loop ends at the end of the file
            }
            return all.array();
        }
    }
}
