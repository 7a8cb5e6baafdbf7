package io.mover.plugins.local;

import java.util.List;
import java.util.Optional;
import java.util.Set;

import io.mover.spi.EndpointUri;
import io.mover.spi.PluginConfig;
import io.mover.spi.RelativePath;
import io.mover.spi.Sink;
import io.mover.testkit.ContractContext;
import io.mover.testkit.LocalStores;
import io.mover.testkit.SinkContractTest;

/** The local sink against the plugin test kit: the store is the context's directory itself. */
final class LocalSinkContractTest extends SinkContractTest {
    @Override
    public Sink createSink(ContractContext context) {
        return new LocalSinkFactory().create(EndpointUri.parse(context.directory().toString()), PluginConfig.EMPTY, context.pluginContext());
    }

    @Override
    public Optional<byte[]> readBack(RelativePath path) {
        return LocalStores.read(context().directory(), path);
    }

    @Override
    public Set<String> storedNames() {
        return LocalStores.names(context().directory());
    }

    @Override
    public boolean isTemporaryName(String storedName) {
        return LocalTemporaries.isTemporary(RelativePath.of(storedName).name());
    }

    @Override
    public List<String> reservedNames() {
        return List.of(".mover.some-job.0123456789ab.name");
    }
}
