package io.mover.plugins.azurefiles;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import io.mover.spi.RelativePath;
import io.mover.spi.Sink;
import io.mover.testkit.ContractContext;
import io.mover.testkit.SinkContractTest;

/** The plugin test kit's sink contract, through the real Azure SDK, against the File service double. */
final class AzureFilesSinkContractTest extends SinkContractTest {
    private static final String SHARE = "contract";
    private String prefix;

    @Override
    public Sink createSink(ContractContext context) {
        TestService.get().share(TestService.ACCOUNT, SHARE);
        prefix = "case-" + Integer.toHexString(context.directory().toString().hashCode());
        try (AzureFilesSink root = TestService.sink(TestService.ACCOUNT, SHARE, Map.of(), context.pluginContext())) {
            root.mkdirs(RelativePath.of(prefix));
        }
        return TestService.sink(TestService.ACCOUNT, SHARE + "/" + prefix, Map.of(), context.pluginContext());
    }

    @Override
    public Optional<byte[]> readBack(RelativePath path) {
        try {
            return Optional.ofNullable(TestService.get().read(TestService.ACCOUNT, SHARE, prefix + "/" + path));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public Set<String> storedNames() {
        return new HashSet<>(TestService.get().names(TestService.ACCOUNT, SHARE, prefix));
    }

    @Override
    public boolean isTemporaryName(String storedName) {
        return storedName.substring(storedName.lastIndexOf('/') + 1).startsWith(".partial.");
    }

    @Override
    public List<String> reservedNames() {
        return List.of(".partial." + JOB_KEY + ".abc");
    }
}
