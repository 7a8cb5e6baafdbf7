package io.mover.core.plugin;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * The class loader of one plugin directory: all its jars, on top of the platform class loader (the
 * JDK), seeing only the SPI and SLF4J of the host. Everything else (Netty, an SDK, a library the
 * host also has in another version) is the plugin's own, so plugins cannot break each other or mover.
 *
 * <p>This is Trino's model (platform parent plus a short allow-list), not Kafka's child-first loader
 * with a long regex of exclusions: what a plugin shares with the host is a list one can read.
 * Thread-safe (parallel capable).
 */
final class PluginClassLoader extends URLClassLoader {
    /**
     * What the host shares. The SPI, so that a plugin's {@code Sink} is the engine's {@code Sink};
     * SLF4J, so that a plugin's log lines go to the host's logging configuration.
     */
    static final List<String> SHARED_PACKAGES = List.of("io.mover.spi.", "org.slf4j.");

    static {
        registerAsParallelCapable();
    }

    private final Path directory;
    private final ClassLoader host;

    PluginClassLoader(Path directory, List<URL> jars, ClassLoader host) {
        super("plugin:" + directory.getFileName(), jars.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
        this.directory = requireNonNull(directory, "directory is null");
        this.host = requireNonNull(host, "host is null");
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (isShared(name)) {
            return host.loadClass(name);
        }
        // Parent first (the JDK), then the plugin's jars: the URLClassLoader default.
        return super.loadClass(name, resolve);
    }

    static boolean isShared(String className) {
        for (String prefix : SHARED_PACKAGES) {
            if (className.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return "PluginClassLoader[" + directory + "]";
    }
}
