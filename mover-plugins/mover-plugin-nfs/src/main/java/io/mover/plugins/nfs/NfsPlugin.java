package io.mover.plugins.nfs;

import io.mover.spi.MoverPlugin;
import io.mover.spi.SinkFactory;
import io.mover.spi.SourceFactory;

import java.util.List;

/** NFSv3 exports ({@code nfs://}) through a userspace client on Netty: several connections per server, no kernel mount. */
public final class NfsPlugin implements MoverPlugin {
    @Override
    public String name() {
        return "nfs";
    }

    @Override
    public String version() {
        String version = NfsPlugin.class.getPackage().getImplementationVersion();
        return version == null ? "dev" : version;
    }

    @Override
    public List<SourceFactory> sourceFactories() {
        return List.of(new NfsSourceFactory());
    }

    @Override
    public List<SinkFactory> sinkFactories() {
        return List.of(new NfsSinkFactory());
    }
}
