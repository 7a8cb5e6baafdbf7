package io.mover.core.plugin;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.TreeSet;

import io.mover.spi.BlockHeader;
import io.mover.spi.CodecFactory;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.MoverPlugin;
import io.mover.spi.SinkFactory;
import io.mover.spi.SourceFactory;

import static java.util.Objects.requireNonNull;

/**
 * The loaded plugins and their factories, by scheme and codec name. Immutable after construction and
 * thread-safe.
 */
public final class PluginRegistry {
    private final List<PluginDescriptor> descriptors;
    private final Map<String, SourceFactory> sources;
    private final Map<String, SinkFactory> sinks;
    private final Map<String, CodecFactory> codecs;

    private PluginRegistry(List<PluginDescriptor> descriptors, Map<String, SourceFactory> sources, Map<String, SinkFactory> sinks,
            Map<String, CodecFactory> codecs) {
        this.descriptors = List.copyOf(descriptors);
        this.sources = Map.copyOf(sources);
        this.sinks = Map.copyOf(sinks);
        this.codecs = Map.copyOf(codecs);
    }

    /** The plugins on the application class path. */
    public static PluginRegistry fromClassPath() {
        return of(loadClassPath(), "classpath");
    }

    static List<MoverPlugin> loadClassPath() {
        List<MoverPlugin> plugins = new ArrayList<>();
        ServiceLoader.load(MoverPlugin.class, PluginRegistry.class.getClassLoader()).forEach(plugins::add);
        return plugins;
    }

    /** A registry of the given plugins, all from one location. Fails on a scheme or codec offered twice. */
    public static PluginRegistry of(Collection<MoverPlugin> plugins, String location) {
        Builder builder = new Builder();
        for (MoverPlugin plugin : plugins) {
            builder.add(plugin, location);
        }
        return builder.build();
    }

    /**
     * Collects plugins; a second plugin claiming a name, a scheme or a codec name or wire id is refused
     * with both named. {@link #add} checks everything before it changes anything, so a refused plugin
     * leaves no factory behind and the builder can go on with the next one. Not thread-safe.
     */
    public static final class Builder {
        private final List<PluginDescriptor> descriptors = new ArrayList<>();
        private final Map<String, SourceFactory> sources = new LinkedHashMap<>();
        private final Map<String, SinkFactory> sinks = new LinkedHashMap<>();
        private final Map<String, CodecFactory> codecs = new LinkedHashMap<>();
        private final Map<String, String> owners = new LinkedHashMap<>();

        /** @throws MoverException {@link ErrorCode#PLUGIN_FAILED} if the plugin clashes with one already added */
        public Builder add(MoverPlugin plugin, String location) {
            requireNonNull(plugin, "plugin is null");
            requireNonNull(location, "location is null");
            // Each plugin method is called once: the lists are then checked and registered as taken.
            String name = requireNonNull(plugin.name(), "plugin name is null");
            String who = name + " " + plugin.version() + " (" + location + ")";
            List<SourceFactory> newSources = List.copyOf(plugin.sourceFactories());
            List<SinkFactory> newSinks = List.copyOf(plugin.sinkFactories());
            List<CodecFactory> newCodecs = List.copyOf(plugin.codecFactories());

            for (PluginDescriptor existing : descriptors) {
                if (existing.name().equals(name)) {
                    throw new MoverException(ErrorCode.PLUGIN_FAILED, "plugin " + name + " is installed twice: "
                            + existing.name() + " " + existing.version() + " (" + existing.location() + ") and " + who + "; remove one of them");
                }
            }
            Map<String, String> claims = new LinkedHashMap<>();
            newSources.forEach(factory -> claim(claims, "source:" + factory.scheme(), who));
            newSinks.forEach(factory -> claim(claims, "sink:" + factory.scheme(), who));
            Map<Byte, String> wireIds = new LinkedHashMap<>();
            codecs.values().forEach(other -> wireIds.put(other.wireId(), other.name()));
            for (CodecFactory factory : newCodecs) {
                claim(claims, "codec:" + factory.name(), who);
                if (factory.wireId() == BlockHeader.RAW || factory.wireId() == BlockHeader.ZEROS) {
                    throw new MoverException(ErrorCode.PLUGIN_FAILED, "codec " + factory.name() + " of " + who
                            + " uses wire id " + factory.wireId() + ", which the block format keeps for " + (factory.wireId() == BlockHeader.RAW ? "raw blocks" : "blocks of zeros"));
                }
                String previous = wireIds.putIfAbsent(factory.wireId(), factory.name());
                if (previous != null) {
                    throw new MoverException(ErrorCode.PLUGIN_FAILED, "codec " + factory.name() + " of " + who
                            + " uses wire id " + factory.wireId() + ", already used by codec " + previous);
                }
            }

            owners.putAll(claims);
            newSources.forEach(factory -> sources.put(factory.scheme(), factory));
            newSinks.forEach(factory -> sinks.put(factory.scheme(), factory));
            newCodecs.forEach(factory -> codecs.put(factory.name(), factory));
            descriptors.add(new PluginDescriptor(name, plugin.version(), location,
                    newSources.stream().map(SourceFactory::scheme).toList(),
                    newSinks.stream().map(SinkFactory::scheme).toList(),
                    newCodecs.stream().map(CodecFactory::name).toList()));
            return this;
        }

        private void claim(Map<String, String> claims, String what, String who) {
            String previous = owners.containsKey(what) ? owners.get(what) : claims.putIfAbsent(what, who);
            if (previous != null) {
                throw new MoverException(ErrorCode.PLUGIN_FAILED, what + " is offered by both " + previous + " and " + who + "; remove one of them");
            }
        }

        public PluginRegistry build() {
            return new PluginRegistry(descriptors, sources, sinks, codecs);
        }
    }

    public List<PluginDescriptor> descriptors() {
        return descriptors;
    }

    public SourceFactory source(String scheme) {
        return Optional.ofNullable(sources.get(scheme)).orElseThrow(() -> unknownScheme(scheme, "read from", sources.keySet()));
    }

    public SinkFactory sink(String scheme) {
        return Optional.ofNullable(sinks.get(scheme)).orElseThrow(() -> unknownScheme(scheme, "write to", sinks.keySet()));
    }

    public Optional<SourceFactory> findSource(String scheme) {
        return Optional.ofNullable(sources.get(scheme));
    }

    public Collection<CodecFactory> codecs() {
        return codecs.values();
    }

    private static MoverException unknownScheme(String scheme, String verb, Collection<String> known) {
        return new MoverException(ErrorCode.UNKNOWN_SCHEME, "no installed plugin can " + verb + " '" + scheme
                + "://' locations; installed schemes: " + String.join(", ", new TreeSet<>(known))
                + " (see 'mover plugins', or add the plugin's jars under plugins/<name>/)");
    }
}
