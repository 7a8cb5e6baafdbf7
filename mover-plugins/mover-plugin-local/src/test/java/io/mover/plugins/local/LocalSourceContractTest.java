package io.mover.plugins.local;

import java.time.Instant;

import io.mover.spi.EndpointUri;
import io.mover.spi.PluginConfig;
import io.mover.spi.RelativePath;
import io.mover.spi.Source;
import io.mover.testkit.ContractContext;
import io.mover.testkit.LocalStores;
import io.mover.testkit.SourceContractTest;

/** The local source against the plugin test kit. */
final class LocalSourceContractTest extends SourceContractTest {
    @Override
    protected void createFile(ContractContext context, RelativePath path, byte[] content, Instant lastModified) {
        LocalStores.createFile(context.directory(), path, content, lastModified);
    }

    @Override
    protected void createDirectory(ContractContext context, RelativePath path) {
        LocalStores.createDirectory(context.directory(), path);
    }

    @Override
    protected Source createSource(ContractContext context) {
        return new LocalSourceFactory().create(EndpointUri.parse(context.directory().toString()), PluginConfig.EMPTY, context.pluginContext());
    }
}
