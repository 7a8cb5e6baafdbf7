package io.mover.plugins.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.mover.spi.EndpointUri;
import io.mover.spi.PluginConfig;
import io.mover.spi.RelativePath;
import io.mover.spi.Sink;
import io.mover.testkit.ContractContext;
import io.mover.testkit.SinkContractTest;

/** The local sink against the plugin test kit: the store is the context's directory itself. */
final class LocalSinkContractTest extends SinkContractTest {
    @Override
    public Sink createSink(ContractContext context) {
        return new LocalSinkFactory().create(EndpointUri.parse(context.directory().toString()), PluginConfig.EMPTY, context.pluginContext());
    }

    @Override
    public Optional<byte[]> readBack(RelativePath path) {
        return LocalStore.read(context().directory(), path);
    }

    @Override
    public Set<String> storedNames() {
        return LocalStore.names(context().directory());
    }

    @Override
    public boolean isTemporaryName(String storedName) {
        return LocalTemporaries.isTemporary(RelativePath.of(storedName).name());
    }

    @Override
    public List<String> reservedNames() {
        return List.of(".mover.some-job.0123456789ab.name");
    }

    /** Reads a local store past the plugin. */
    static final class LocalStore {
        private LocalStore() {}

        static Optional<byte[]> read(Path root, RelativePath path) {
            Path file = LocalFiles.resolve(root, path);
            if (!Files.isRegularFile(file)) {
                return Optional.empty();
            }
            try {
                return Optional.of(Files.readAllBytes(file));
            }
            catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        static Set<String> names(Path root) {
            try (Stream<Path> walk = Files.walk(root)) {
                return walk.filter(file -> !file.equals(root))
                        .map(file -> root.relativize(file).toString().replace(java.io.File.separatorChar, '/'))
                        .collect(Collectors.toSet());
            }
            catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
