package io.mover.plugins.nfs;

import io.mover.spi.RelativePath;
import io.mover.spi.Source;
import io.mover.testkit.ContractContext;
import io.mover.testkit.LocalStores;
import io.mover.testkit.SourceContractTest;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Instant;

/** The nfs source against the plugin test kit: files are laid out on ganesha's disk, read back over NFS. */
@ExtendWith(GaneshaExtension.class)
final class NfsSourceContractTest extends SourceContractTest {
    private static String folderName(ContractContext context) {
        return "source-" + context.directory().getParent().getFileName();
    }

    private static Path store(ContractContext context) {
        try {
            return GaneshaExtension.running().folder(folderName(context));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    protected void createFile(ContractContext context, RelativePath path, byte[] content, Instant lastModified) {
        LocalStores.createFile(store(context), path, content, lastModified);
    }

    @Override
    protected void createDirectory(ContractContext context, RelativePath path) {
        LocalStores.createDirectory(store(context), path);
    }

    @Override
    protected Source createSource(ContractContext context) {
        Ganesha ganesha = GaneshaExtension.running();
        store(context);
        return new NfsSourceFactory().create(ganesha.uri(folderName(context)), ganesha.config("read-size", "64k"), context.pluginContext());
    }
}
