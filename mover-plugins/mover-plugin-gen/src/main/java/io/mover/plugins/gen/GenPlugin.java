package io.mover.plugins.gen;

import java.util.List;

import io.mover.spi.MoverPlugin;
import io.mover.spi.SourceFactory;

/** {@code gen://}: generated, deterministic data for benchmarks and tests; nothing is read from a disk. */
public final class GenPlugin implements MoverPlugin {
    @Override
    public String name() {
        return "gen";
    }

    @Override
    public String version() {
        String version = GenPlugin.class.getPackage().getImplementationVersion();
        return version == null ? "dev" : version;
    }

    @Override
    public List<SourceFactory> sourceFactories() {
        return List.of(new GenSourceFactory());
    }
}
