package io.mover.core.plugin;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.stream.Stream;

import io.mover.spi.MoverPlugin;
import io.mover.spi.SpiVersion;

import static java.util.Objects.requireNonNull;

/**
 * Finds and loads plugins: first those on the application class path, then one per
 * {@code <root>/<name>/} directory, each directory's jars in its own {@link PluginClassLoader}.
 *
 * <p>A plugin that cannot load (no provider file, a constructor that throws, a missing class, a name,
 * scheme or codec already taken, an SPI of another major version) becomes a {@link PluginLoadFailure}
 * and the others load regardless: one broken jar must not take every other plugin down with it. Order is
 * deterministic (roots in the order given, directories by name), so when two directories offer the same
 * plugin, the same one always wins and the other is reported.
 */
public final class PluginLoader {
    static final String CLASSPATH = "classpath";
    private static final String PROVIDER_FILE = "META-INF/services/" + MoverPlugin.class.getName();
    // A bound on providers per location, so a malformed provider file cannot keep the loop going.
    private static final int MAX_PROVIDERS = 1_000;
    // System.Logger as the engine's other classes: SLF4J's first logger configures logback (about 30 ms of a short CLI job)
    private static final System.Logger LOG = System.getLogger(PluginLoader.class.getName());

    private final ClassLoader host;
    private final PluginRegistry.Builder registry = new PluginRegistry.Builder();
    private final List<PluginLoadFailure> failures = new ArrayList<>();

    private PluginLoader(ClassLoader host) {
        this.host = requireNonNull(host, "host is null");
    }

    /** Loads the class path's plugins and those under {@code pluginRoots} (see {@link PluginDirectories}). */
    public static LoadedPlugins load(List<Path> pluginRoots) {
        return load(pluginRoots, PluginLoader.class.getClassLoader());
    }

    /** As {@link #load(List)}, with {@code host} as the application class loader (tests). */
    static LoadedPlugins load(List<Path> pluginRoots, ClassLoader host) {
        requireNonNull(pluginRoots, "pluginRoots is null");
        PluginLoader loader = new PluginLoader(host);
        loader.loadClassPath();
        for (Path root : pluginRoots) {
            loader.loadRoot(root);
        }
        return new LoadedPlugins(loader.registry.build(), loader.failures);
    }

    private void loadClassPath() {
        // Class path plugins are loaded one by one: a broken one is reported and the next one still loads.
        Iterator<MoverPlugin> providers = ServiceLoader.load(MoverPlugin.class, host).iterator();
        for (int i = 0; i < MAX_PROVIDERS; i++) {
            try {
                if (!providers.hasNext()) {
                    return;
                }
                register(providers.next(), host, CLASSPATH);
            }
            catch (ServiceConfigurationError | LinkageError e) {
                fail(CLASSPATH, PluginErrors.describe(e));
            }
        }
    }

    private void loadRoot(Path root) {
        List<Path> children;
        try (Stream<Path> listing = Files.list(root)) {
            children = listing.filter(path -> !path.getFileName().toString().startsWith(".")).sorted().toList();
        }
        catch (IOException | UncheckedIOException e) {
            fail(root.toString(), "cannot list the plugin directory: " + PluginErrors.describe(e));
            return;
        }
        for (Path child : children) {
            if (Files.isDirectory(child)) {
                loadDirectory(child);
            }
            else if (isJar(child)) {
                fail(child.toString(), "a plugin's jars go in a directory of their own: move it to " + root.resolve("<plugin name>") + "/");
            }
        }
    }

    private void loadDirectory(Path directory) {
        String location = directory.toString();
        Optional<List<URL>> urls = jarUrls(directory, location);
        if (urls.isEmpty()) {
            return;
        }
        PluginClassLoader loader = new PluginClassLoader(directory, urls.get(), host);
        List<MoverPlugin> plugins;
        try {
            plugins = ClassLoaderSafe.call(loader, () -> instantiate(loader));
        }
        catch (ServiceConfigurationError | RuntimeException | LinkageError e) {
            close(loader);
            fail(location, PluginErrors.describe(e));
            return;
        }
        if (plugins.isEmpty()) {
            close(loader);
            fail(location, "no plugin found: none of its jars has " + PROVIDER_FILE + " naming the MoverPlugin class");
            return;
        }
        boolean anyRegistered = false;
        for (MoverPlugin plugin : plugins) {
            anyRegistered |= register(plugin, loader, location);
        }
        if (!anyRegistered) {
            close(loader);
        }
    }

    /** The URLs of the directory's jars, or empty after reporting why the directory cannot be used. */
    private Optional<List<URL>> jarUrls(Path directory, String location) {
        try {
            List<Path> jars = jarsIn(directory);
            if (jars.isEmpty()) {
                fail(location, "no .jar file in the plugin directory");
                return Optional.empty();
            }
            Optional<String> incompatible = incompatibleSpi(jars);
            if (incompatible.isPresent()) {
                fail(location, incompatible.get());
                return Optional.empty();
            }
            List<URL> urls = new ArrayList<>();
            for (Path jar : jars) {
                urls.add(jar.toUri().toURL());
            }
            return Optional.of(urls);
        }
        catch (IOException | UncheckedIOException e) {
            fail(location, "cannot read the plugin's jars: " + PluginErrors.describe(e));
            return Optional.empty();
        }
    }

    /**
     * Every provider of one directory, or an error: if one provider cannot be created, none of the
     * directory is used (they share jars, so the others are suspect too). Registration, after, is per plugin.
     */
    private static List<MoverPlugin> instantiate(ClassLoader loader) {
        List<MoverPlugin> plugins = new ArrayList<>();
        Iterator<MoverPlugin> providers = ServiceLoader.load(MoverPlugin.class, loader).iterator();
        while (plugins.size() < MAX_PROVIDERS && providers.hasNext()) {
            plugins.add(providers.next());
        }
        return plugins;
    }

    private boolean register(MoverPlugin plugin, ClassLoader loader, String location) {
        try {
            IsolatedPlugin isolated = IsolatedPlugin.of(plugin, loader);
            registry.add(isolated, location);
            LOG.log(System.Logger.Level.INFO, () -> "loaded plugin " + isolated.name() + " " + isolated.version() + " from " + location);
            return true;
        }
        catch (RuntimeException | LinkageError e) {
            fail(location, PluginErrors.describe(e));
            return false;
        }
    }

    private static List<Path> jarsIn(Path directory) throws IOException {
        try (Stream<Path> listing = Files.list(directory)) {
            return listing.filter(PluginLoader::isJar).sorted().toList();
        }
    }

    private static boolean isJar(Path path) {
        return Files.isRegularFile(path) && path.getFileName().toString().endsWith(".jar");
    }

    /** A jar that declares, in its manifest, an SPI of another major version than ours. */
    private static Optional<String> incompatibleSpi(List<Path> jars) throws IOException {
        for (Path jar : jars) {
            try (JarFile file = new JarFile(jar.toFile())) {
                Manifest manifest = file.getManifest();
                String declared = manifest == null ? null : manifest.getMainAttributes().getValue(SpiVersion.MANIFEST_ATTRIBUTE);
                if (declared != null && !declared.strip().split("\\.", 2)[0].equals(String.valueOf(SpiVersion.MAJOR))) {
                    return Optional.of(jar.getFileName() + " was built for SPI " + declared.strip() + " but this mover has SPI "
                            + SpiVersion.current() + "; use a version of the plugin built for SPI " + SpiVersion.MAJOR + ".x");
                }
            }
        }
        return Optional.empty();
    }

    private void fail(String location, String reason) {
        // DEBUG: the callers (the CLI, the server) report each failure as a warning, from LoadedPlugins.failures()
        LOG.log(System.Logger.Level.DEBUG, () -> "plugin at " + location + " not loaded: " + reason);
        failures.add(new PluginLoadFailure(location, reason));
    }

    private static void close(PluginClassLoader loader) {
        try {
            loader.close();
        }
        catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, () -> "closing " + loader + " failed", e);
        }
    }
}
