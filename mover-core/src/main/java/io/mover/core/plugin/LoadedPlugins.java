package io.mover.core.plugin;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * What {@link PluginLoader#load} found: a registry of every plugin that loaded, and the ones that did not.
 *
 * @param registry the plugins that loaded, ready for the engine
 * @param failures the plugins that were refused, in the order they were met
 */
public record LoadedPlugins(PluginRegistry registry, List<PluginLoadFailure> failures) {
    public LoadedPlugins {
        requireNonNull(registry, "registry is null");
        failures = List.copyOf(failures);
    }
}
