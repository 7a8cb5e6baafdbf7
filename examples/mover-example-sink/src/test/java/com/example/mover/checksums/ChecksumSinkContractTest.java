package com.example.mover.checksums;

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

/**
 * The whole sink contract from the plugin test kit, run against this sink: three hooks to create the
 * sink and look at the store past it, and the names this sink treats as its own.
 */
final class ChecksumSinkContractTest extends SinkContractTest {
    @Override
    public Sink createSink(ContractContext context) {
        return new ChecksumSinkFactory().create(EndpointUri.parse("example://" + context.directory().toUri().getRawPath()),
                PluginConfig.EMPTY, context.pluginContext());
    }

    @Override
    public Optional<byte[]> readBack(RelativePath path) {
        Path file = new StoreLayout(context().directory()).data(path);
        try {
            return Files.isRegularFile(file) ? Optional.of(Files.readAllBytes(file)) : Optional.empty();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public Set<String> storedNames() {
        Path root = context().directory();
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(file -> !file.equals(root)).map(file -> root.relativize(file).toString()).collect(Collectors.toSet());
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public boolean isTemporaryName(String storedName) {
        return StoreLayout.isTemporary(Path.of(storedName).getFileName().toString());
    }

    @Override
    public List<String> reservedNames() {
        return List.of(".checksums", ".checksums/a.txt.sha256", "dir/.partial.some-job.0123456789ab");
    }
}
