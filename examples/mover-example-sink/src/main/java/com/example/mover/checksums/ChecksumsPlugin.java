package com.example.mover.checksums;

import java.util.List;

import io.mover.spi.MoverPlugin;
import io.mover.spi.SinkFactory;

/**
 * The entry point mover finds through {@code META-INF/services/io.mover.spi.MoverPlugin}. A public
 * no-argument constructor that does no I/O: all the work is in the factory.
 */
public final class ChecksumsPlugin implements MoverPlugin {
    @Override
    public String name() {
        return "example-sink";
    }

    @Override
    public String version() {
        // the jar's manifest carries it when the build writes one; a plain class directory has none
        String version = ChecksumsPlugin.class.getPackage().getImplementationVersion();
        return version == null ? "dev" : version;
    }

    @Override
    public List<SinkFactory> sinkFactories() {
        return List.of(new ChecksumSinkFactory());
    }
}
