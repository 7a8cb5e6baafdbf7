package io.mover.core.plugin;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.TreeSet;

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

    /** Collects plugins; a second plugin claiming a scheme or codec name is refused with both named. */
    public static final class Builder {
        private final List<PluginDescriptor> descriptors = new ArrayList<>();
        private final Map<String, SourceFactory> sources = new LinkedHashMap<>();
        private final Map<String, SinkFactory> sinks = new LinkedHashMap<>();
        private final Map<String, CodecFactory> codecs = new LinkedHashMap<>();
        private final Map<String, String> owners = new LinkedHashMap<>();

        public Builder add(MoverPlugin plugin, String location) {
            requireNonNull(plugin, "plugin is null");
            String who = plugin.name() + " " + plugin.version() + " (" + location + ")";
            for (PluginDescriptor existing : descriptors) {
                if (existing.name().equals(plugin.name())) {
                    throw new MoverException(ErrorCode.PLUGIN_FAILED, "plugin " + plugin.name() + " is installed twice: "
                            + existing.version() + " (" + existing.location() + ") and " + who + "; remove one of them");
                }
            }
            List<String> sourceSchemes = new ArrayList<>();
            for (SourceFactory factory : plugin.sourceFactories()) {
                claim("source:" + factory.scheme(), who);
                sources.put(factory.scheme(), factory);
                sourceSchemes.add(factory.scheme());
            }
            List<String> sinkSchemes = new ArrayList<>();
            for (SinkFactory factory : plugin.sinkFactories()) {
                claim("sink:" + factory.scheme(), who);
                sinks.put(factory.scheme(), factory);
                sinkSchemes.add(factory.scheme());
            }
            List<String> codecNames = new ArrayList<>();
            for (CodecFactory factory : plugin.codecFactories()) {
                claim("codec:" + factory.name(), who);
                for (CodecFactory other : codecs.values()) {
                    if (other.wireId() == factory.wireId()) {
                        throw new MoverException(ErrorCode.PLUGIN_FAILED, "codec " + factory.name() + " of " + who
                                + " uses wire id " + factory.wireId() + ", already used by codec " + other.name());
                    }
                }
                codecs.put(factory.name(), factory);
                codecNames.add(factory.name());
            }
            descriptors.add(new PluginDescriptor(plugin.name(), plugin.version(), location, sourceSchemes, sinkSchemes, codecNames));
            return this;
        }

        private void claim(String what, String who) {
            String previous = owners.putIfAbsent(what, who);
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
