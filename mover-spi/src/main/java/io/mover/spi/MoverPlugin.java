package io.mover.spi;

import java.util.List;

/**
 * The entry point of a plugin, found by {@link java.util.ServiceLoader}: list the implementation's
 * class name in {@code META-INF/services/io.mover.spi.MoverPlugin}. It needs a public no-argument
 * constructor that does no I/O; all work happens in the factories it returns.
 *
 * <p>A plugin is loaded once per process, in its own class loader when it comes from a
 * {@code plugins/<name>/} directory, sharing only this package with mover. Every call into it runs
 * with that class loader as the thread's context class loader.
 */
public interface MoverPlugin {
    /** A short unique name ({@code local}, {@code azure-files}); lower case, digits and dashes. */
    String name();

    /** The plugin's own version, shown by {@code mover plugins}. */
    String version();

    default List<SourceFactory> sourceFactories() {
        return List.of();
    }

    default List<SinkFactory> sinkFactories() {
        return List.of();
    }

    default List<CodecFactory> codecFactories() {
        return List.of();
    }
}
