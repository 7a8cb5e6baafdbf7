package io.mover.plugins.azurefiles;

import java.util.List;

import io.mover.spi.MoverPlugin;
import io.mover.spi.SinkFactory;
import io.mover.spi.SourceFactory;

/** Azure Files shares as sources and sinks, on the Azure SDK: {@code azfiles://ACCOUNT/SHARE/PATH} and {@code https://ACCOUNT.file.core.windows.net/SHARE/PATH}. */
public final class AzureFilesPlugin implements MoverPlugin {

    @Override
    public String name() {
        return "azure-files";
    }

    @Override
    public String version() {
        String version = AzureFilesPlugin.class.getPackage().getImplementationVersion();
        return version == null ? "dev" : version;
    }

    @Override
    public List<SourceFactory> sourceFactories() {
        return List.of(new AzureFilesFactory.Sources("azfiles", System::getenv), new AzureFilesFactory.Sources("https", System::getenv));
    }

    @Override
    public List<SinkFactory> sinkFactories() {
        return List.of(new AzureFilesFactory.Sinks("azfiles", System::getenv), new AzureFilesFactory.Sinks("https", System::getenv));
    }
}
