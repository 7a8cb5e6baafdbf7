package io.mover.core.plugin;

import java.util.List;

import io.mover.spi.CodecFactory;
import io.mover.spi.MoverPlugin;
import io.mover.spi.SinkFactory;
import io.mover.spi.SourceFactory;

import static java.util.Objects.requireNonNull;

/**
 * A loaded plugin as the registry sees it: what it answered once, at load time, with every factory
 * wrapped so that calls into it run under the plugin's class loader.
 */
record IsolatedPlugin(String name, String version, List<SourceFactory> sourceFactories, List<SinkFactory> sinkFactories,
        List<CodecFactory> codecFactories) implements MoverPlugin {
    IsolatedPlugin {
        requireNonNull(name, "plugin name is null");
        requireNonNull(version, "version of plugin " + name + " is null");
        sourceFactories = List.copyOf(sourceFactories);
        sinkFactories = List.copyOf(sinkFactories);
        codecFactories = List.copyOf(codecFactories);
    }

    /** Asks {@code plugin} for everything, with {@code loader} as the context class loader. */
    static IsolatedPlugin of(MoverPlugin plugin, ClassLoader loader) {
        return ClassLoaderSafe.call(loader, () -> new IsolatedPlugin(plugin.name(), plugin.version(),
                plugin.sourceFactories().stream().map(factory -> ClassLoaderSafe.wrap(SourceFactory.class, factory, loader)).toList(),
                plugin.sinkFactories().stream().map(factory -> ClassLoaderSafe.wrap(SinkFactory.class, factory, loader)).toList(),
                plugin.codecFactories().stream().map(factory -> ClassLoaderSafe.wrap(CodecFactory.class, factory, loader)).toList()));
    }
}
