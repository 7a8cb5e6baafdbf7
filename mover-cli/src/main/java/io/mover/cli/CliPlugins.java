package io.mover.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import io.mover.core.plugin.PluginRegistry;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

/**
 * The one place the CLI gets its plugins. Today: those on the class path (local files, codecs).
 * The plugin loader that also scans {@code plugins/} and {@code --plugins DIR} directories, each
 * plugin in its own class loader, replaces the body of {@link #load} and nothing else.
 */
final class CliPlugins {
    private static final System.Logger LOG = System.getLogger(CliPlugins.class.getName());

    private CliPlugins() {}

    static PluginRegistry load(List<Path> pluginDirectories) {
        for (Path directory : pluginDirectories) {
            if (!Files.isDirectory(directory)) {
                throw new MoverException(ErrorCode.NOT_A_DIRECTORY, "plugin directory " + directory + " does not exist or is not a directory");
            }
            LOG.log(System.Logger.Level.WARNING, "this build loads plugins from the class path only; " + directory + " is not scanned yet");
        }
        return PluginRegistry.fromClassPath();
    }
}
