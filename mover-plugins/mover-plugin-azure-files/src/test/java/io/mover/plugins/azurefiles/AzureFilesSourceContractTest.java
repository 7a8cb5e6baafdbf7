package io.mover.plugins.azurefiles;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.Map;

import io.mover.spi.RelativePath;
import io.mover.spi.Source;
import io.mover.testkit.ContractContext;
import io.mover.testkit.SourceContractTest;

/** The plugin test kit's source contract, through the real Azure SDK, against the File service double. */
final class AzureFilesSourceContractTest extends SourceContractTest {
    private static final String SHARE = "sourcecontract";

    private static String prefix(ContractContext context) {
        return "case-" + Integer.toHexString(context.directory().toString().hashCode());
    }

    @Override
    protected void createFile(ContractContext context, RelativePath path, byte[] content, Instant lastModified) {
        try {
            TestService.get().share(TestService.ACCOUNT, SHARE).put(TestService.ACCOUNT, SHARE, prefix(context) + "/" + path, content, lastModified);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    protected void createDirectory(ContractContext context, RelativePath path) {
        TestService.get().share(TestService.ACCOUNT, SHARE).mkdir(TestService.ACCOUNT, SHARE, prefix(context) + (path.isRoot() ? "" : "/" + path), Instant.now());
    }

    @Override
    protected Source createSource(ContractContext context) {
        TestService.get().share(TestService.ACCOUNT, SHARE).mkdir(TestService.ACCOUNT, SHARE, prefix(context), Instant.now());
        return TestService.source(TestService.ACCOUNT, SHARE + "/" + prefix(context), Map.of(), context.pluginContext());
    }
}
