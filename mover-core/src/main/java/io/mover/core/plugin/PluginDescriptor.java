package io.mover.core.plugin;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * What {@code mover plugins} and {@code GET /api/v1/plugins} show of one loaded plugin.
 *
 * @param name the plugin's name
 * @param version the plugin's version
 * @param location {@code classpath} or the plugin directory it was loaded from
 * @param sources URI schemes it reads
 * @param sinks URI schemes it writes
 * @param codecs codec names it provides
 */
public record PluginDescriptor(String name, String version, String location, List<String> sources, List<String> sinks,
        List<String> codecs) {
    public PluginDescriptor {
        requireNonNull(name, "name is null");
        requireNonNull(version, "version is null");
        requireNonNull(location, "location is null");
        sources = List.copyOf(sources);
        sinks = List.copyOf(sinks);
        codecs = List.copyOf(codecs);
    }
}
