package io.mover.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import io.mover.core.plugin.LoadedPlugins;
import io.mover.core.plugin.PluginDirectories;
import io.mover.core.plugin.PluginLoadFailure;
import io.mover.core.plugin.PluginLoader;
import io.mover.core.plugin.PluginRegistry;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

/**
 * The one place the CLI gets its plugins: the class path (local files, codecs), then every
 * {@code plugins/<name>/} directory under {@code --plugins DIR}, {@code $MOVER_PLUGINS} and
 * {@code <mover home>/plugins} (the launcher sets {@code mover.home}), each in its own class loader.
 * A plugin that fails to load is reported on stderr and the others still run.
 */
final class CliPlugins {
    private static final System.Logger LOG = System.getLogger(CliPlugins.class.getName());

    private CliPlugins() {}

    static PluginRegistry load(List<Path> pluginDirectories) {
        return loadAll(pluginDirectories).registry();
    }

    static LoadedPlugins loadAll(List<Path> pluginDirectories) {
        for (Path directory : pluginDirectories) {
            if (!Files.isDirectory(directory)) {
                throw new MoverException(ErrorCode.NOT_A_DIRECTORY, "plugin directory " + directory + " does not exist or is not a directory");
            }
        }
        Optional<Path> home = Optional.ofNullable(System.getProperty("mover.home")).map(Path::of);
        LoadedPlugins loaded = PluginLoader.load(PluginDirectories.resolve(home, pluginDirectories));
        for (PluginLoadFailure failure : loaded.failures()) {
            LOG.log(System.Logger.Level.WARNING, "plugin not loaded from " + failure.location() + ": " + failure.reason());
        }
        return loaded;
    }
}
