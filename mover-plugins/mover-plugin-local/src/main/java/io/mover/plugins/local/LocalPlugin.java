package io.mover.plugins.local;

import java.util.List;

import io.mover.spi.MoverPlugin;
import io.mover.spi.SinkFactory;
import io.mover.spi.SourceFactory;

/** Local disks and mounted shares: {@code file://} URIs and plain paths. */
public final class LocalPlugin implements MoverPlugin {
    @Override
    public String name() {
        return "local";
    }

    @Override
    public String version() {
        String version = LocalPlugin.class.getPackage().getImplementationVersion();
        return version == null ? "dev" : version;
    }

    @Override
    public List<SourceFactory> sourceFactories() {
        return List.of(new LocalSourceFactory());
    }

    @Override
    public List<SinkFactory> sinkFactories() {
        return List.of(new LocalSinkFactory());
    }
}
