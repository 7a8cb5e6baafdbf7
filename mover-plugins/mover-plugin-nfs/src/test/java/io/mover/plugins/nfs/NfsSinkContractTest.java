package io.mover.plugins.nfs;

import io.mover.spi.RelativePath;
import io.mover.spi.Sink;
import io.mover.testkit.ContractContext;
import io.mover.testkit.LocalStores;
import io.mover.testkit.SinkContractTest;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The nfs sink against the plugin test kit, through nfs-ganesha: each case writes into its own folder of
 * the export, and {@link #readBack}/{@link #storedNames} look at that folder on ganesha's disk directly.
 */
@ExtendWith(GaneshaExtension.class)
final class NfsSinkContractTest extends SinkContractTest {
    @Override
    public Sink createSink(ContractContext context) {
        Ganesha ganesha = GaneshaExtension.running();
        return new NfsSinkFactory().create(ganesha.uri(folderName(context)), ganesha.config("connections", "2"), context.pluginContext());
    }

    /** One folder per case, the same for every sink a case opens (its temporary directory's name is unique). */
    private static String folderName(ContractContext context) {
        return "contract-" + context.directory().getParent().getFileName();
    }

    private Path store() {
        return GaneshaExtension.running().export().resolve(folderName(context()));
    }

    @Override
    public Optional<byte[]> readBack(RelativePath path) {
        return LocalStores.read(store(), path);
    }

    @Override
    public Set<String> storedNames() {
        return LocalStores.names(store());
    }

    @Override
    public boolean isTemporaryName(String storedName) {
        return NfsTemporaries.isTemporary(RelativePath.of(storedName).name());
    }

    @Override
    public List<String> reservedNames() {
        return List.of(".mover.some-job.0123456789ab");
    }
}
