package io.mover.plugins.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;

import io.mover.spi.EndpointUri;
import io.mover.spi.PluginConfig;
import io.mover.spi.RelativePath;
import io.mover.spi.Source;
import io.mover.testkit.ContractContext;
import io.mover.testkit.SourceContractTest;

/** The local source against the plugin test kit. */
final class LocalSourceContractTest extends SourceContractTest {
    @Override
    protected void createFile(ContractContext context, RelativePath path, byte[] content, Instant lastModified) {
        Path file = LocalFiles.resolve(context.directory(), path);
        try {
            Files.write(file, content);
            Files.setLastModifiedTime(file, FileTime.from(lastModified));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    protected void createDirectory(ContractContext context, RelativePath path) {
        try {
            Files.createDirectories(LocalFiles.resolve(context.directory(), path));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    protected Source createSource(ContractContext context) {
        return new LocalSourceFactory().create(EndpointUri.parse(context.directory().toString()), PluginConfig.EMPTY, context.pluginContext());
    }
}
