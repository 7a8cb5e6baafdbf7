package io.mover.core.plugin;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.ServiceLoader;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.mover.spi.Codec;
import io.mover.spi.CodecFactory;
import io.mover.spi.ContentHashes;
import io.mover.spi.EndpointUri;
import io.mover.spi.Entry;
import io.mover.spi.MoverPlugin;
import io.mover.spi.PluginConfig;
import io.mover.spi.PluginContext;
import io.mover.spi.RecursiveList;
import io.mover.spi.RelativePath;
import io.mover.spi.ServerSideCopy;
import io.mover.spi.Sink;
import io.mover.spi.SinkWriter;
import io.mover.spi.Source;
import io.mover.spi.SourceReader;
import io.mover.spi.SymbolicLinks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Timeout(120)
class PluginLoaderTest {
    @TempDir
    Path temp;
    private Path plugins;
    private Path scratch;
    private PluginContext context;

    @BeforeEach
    void setUp() throws Exception {
        plugins = Files.createDirectories(temp.resolve("plugins"));
        scratch = Files.createDirectories(temp.resolve("scratch"));
        context = new PluginContext("job-1", scratch, Clock.systemUTC(), System.getLogger("test"));
    }

    @Test
    void goodPluginLoadsAndEveryCallRunsUnderItsClassLoader() throws Exception {
        Path jar = goodPlugin("good");
        ClassLoader before = Thread.currentThread().getContextClassLoader();

        LoadedPlugins loaded = PluginLoader.load(List.of(plugins));

        assertThat(loaded.failures()).isEmpty();
        assertThat(loaded.registry().descriptors()).containsExactly(new PluginDescriptor("good", "1.2.3",
                plugins.resolve("good").toString(), List.of("good"), List.of("good"), List.of("good-codec")));
        // Each call below throws inside the plugin if the context class loader is not the plugin's.
        assertThat(loaded.registry().source("good").description()).isEqualTo("good files");
        EndpointUri uri = EndpointUri.parse("good://host/root");
        Source source = loaded.registry().source("good").create(uri, PluginConfig.EMPTY, context);
        assertThat(source).isInstanceOf(RecursiveList.class).isNotInstanceOf(ContentHashes.class).isNotInstanceOf(SymbolicLinks.class);
        source.info();
        try (Stream<Entry> listing = source.list(RelativePath.ROOT)) {
            assertThat(listing.map(entry -> entry.path().toString()).toList()).containsExactly("f1", "f2", "f3");
        }
        try (Stream<Entry> listing = ((RecursiveList) source).listRecursively(RelativePath.ROOT)) {
            assertThat(listing.count()).isEqualTo(3);
        }
        try (SourceReader reader = source.open(RelativePath.of("f1"))) {
            assertThat(reader.read(0, ByteBuffer.allocate(8))).isZero();
        }

        Sink sink = loaded.registry().sink("good").create(uri, PluginConfig.EMPTY, context);
        assertThat(sink).isInstanceOf(SymbolicLinks.class).isInstanceOf(ServerSideCopy.class).isNotInstanceOf(RecursiveList.class);
        assertThat(sink.mkdirs(RelativePath.of("dir"))).isTrue();
        ((SymbolicLinks) sink).createSymbolicLink(RelativePath.of("link"), "f1");
        Entry entry = Entry.file(RelativePath.of("f1"), 3, Instant.EPOCH);
        SinkWriter writer = sink.create(RelativePath.of("f1"), 3, entry);
        writer.write(0, ByteBuffer.wrap(new byte[] {1, 2, 3}));
        assertThat(writer.commit()).isEqualTo(entry);
        // The plugin recognises its own source: the wrapper hands it the unwrapped object.
        assertThat(((ServerSideCopy) sink).copyFrom(source, entry, RelativePath.of("f2"))).contains(entry);

        CodecFactory codecs = loaded.registry().codecs().iterator().next();
        Codec codec = codecs.create(0);
        ByteBuffer output = ByteBuffer.allocate(codec.maxCompressedLength(4));
        assertThat(codec.compress(ByteBuffer.wrap(new byte[] {1, 2, 3, 4}), output)).isEqualTo(4);
        sink.close();
        source.close();
        assertThat(Thread.currentThread().getContextClassLoader()).isSameAs(before);

        // And the check inside the plugin is real: called without the wrapper, it refuses.
        try (URLClassLoader raw = new URLClassLoader(new URL[] {jar.toUri().toURL()}, getClass().getClassLoader())) {
            MoverPlugin unwrapped = ServiceLoader.load(MoverPlugin.class, raw).findFirst().orElseThrow();
            assertThatThrownBy(unwrapped::name).hasMessageContaining("context class loader");
        }
    }

    @Test
    void directoryWithoutProviderFileIsReportedAndTheOthersStillLoad() {
        goodPlugin("good");
        write("empty", "classes.jar", new TestJar().source("com.example.empty.Nothing", "package com.example.empty; public class Nothing {}"));

        LoadedPlugins loaded = PluginLoader.load(List.of(plugins));

        assertThat(loaded.registry().descriptors()).extracting(PluginDescriptor::name).containsExactly("good");
        assertThat(loaded.failures()).singleElement().satisfies(failure -> {
            assertThat(failure.location()).isEqualTo(plugins.resolve("empty").toString());
            assertThat(failure.reason()).contains("no plugin found").contains("META-INF/services/io.mover.spi.MoverPlugin");
        });
    }

    @Test
    void missingProviderClassAndCorruptJarAreReported() throws Exception {
        goodPlugin("good");
        write("ghost", "ghost.jar", new TestJar().service("com.example.ghost.Plugin"));
        Files.createDirectories(plugins.resolve("corrupt"));
        Files.writeString(plugins.resolve("corrupt/corrupt.jar"), "not a zip file");

        LoadedPlugins loaded = PluginLoader.load(List.of(plugins));

        assertThat(loaded.registry().descriptors()).extracting(PluginDescriptor::name).containsExactly("good");
        assertThat(loaded.failures()).satisfiesExactly(
                corrupt -> assertThat(corrupt.reason()).startsWith("cannot read the plugin's jars: ZipException"),
                ghost -> assertThat(ghost.reason()).startsWith("Provider com.example.ghost.Plugin not found")
                        .contains("a class the plugin needs is in none of its jars"));
    }

    @Test
    void constructorThatThrowsIsReportedWithItsMessage() {
        goodPlugin("good");
        write("boom", "boom.jar", new TestJar().source("com.example.boom.Plugin", TestPlugins.THROWING).service("com.example.boom.Plugin"));

        LoadedPlugins loaded = PluginLoader.load(List.of(plugins));

        assertThat(loaded.registry().descriptors()).extracting(PluginDescriptor::name).containsExactly("good");
        assertThat(loaded.failures()).singleElement().satisfies(failure -> {
            assertThat(failure.location()).endsWith("boom");
            assertThat(failure.reason()).contains("com.example.boom.Plugin could not be instantiated")
                    .contains("IllegalStateException: licence file missing").doesNotContain("\n");
        });
    }

    @Test
    void twoVersionsOfOnePluginLoadTheFirstAndReportTheSecondNamingBoth() {
        write("dup-1.0", "dup.jar", simplePlugin("com.example.dup", "dup", "1.0", "dup", "dup", "\"first\""));
        write("dup-2.0", "dup.jar", simplePlugin("com.example.dup", "dup", "2.0", "dup", "dup", "\"second\""));

        LoadedPlugins loaded = PluginLoader.load(List.of(plugins));

        assertThat(loaded.registry().source("dup").description()).isEqualTo("first");
        assertThat(loaded.failures()).singleElement().satisfies(failure -> {
            assertThat(failure.location()).isEqualTo(plugins.resolve("dup-2.0").toString());
            assertThat(failure.reason()).contains("installed twice").contains("dup 1.0 (" + plugins.resolve("dup-1.0"))
                    .contains("dup 2.0 (" + plugins.resolve("dup-2.0"));
        });
    }

    @Test
    void schemeClaimedTwiceRefusesTheWholeSecondPlugin() {
        write("alpha", "alpha.jar", simplePlugin("com.example.alpha", "alpha", "1", "alpha", "shared", "\"alpha\""));
        write("beta", "beta.jar", simplePlugin("com.example.beta", "beta", "1", "beta-only", "shared", "\"beta\""));

        LoadedPlugins loaded = PluginLoader.load(List.of(plugins));

        assertThat(loaded.registry().descriptors()).extracting(PluginDescriptor::name).containsExactly("alpha");
        assertThat(loaded.failures()).singleElement().satisfies(failure ->
                assertThat(failure.reason()).contains("sink:shared is offered by both alpha").contains("beta 1"));
        // beta's source scheme was checked before its sink clashed: nothing of beta stays registered.
        assertThat(loaded.registry().findSource("beta-only")).isEmpty();
    }

    @Test
    void eachPluginSeesItsOwnVersionOfALibraryTheHostAlsoHas() throws Exception {
        Path hostLibrary = new TestJar().source("com.example.lib.Greeter", TestPlugins.greeter("host")).writeTo(scratch.resolve("host-lib.jar"), scratch);
        for (String version : List.of("A", "B")) {
            String name = "lib-user-" + version.toLowerCase();
            Path library = write(name, "greeter.jar", new TestJar().source("com.example.lib.Greeter", TestPlugins.greeter(version)));
            write(name, "plugin.jar", simplePlugin("com.example.user" + version, name, "1", name, name, "com.example.lib.Greeter.greet()")
                    .compileAgainst(library));
        }

        try (URLClassLoader host = new URLClassLoader(new URL[] {hostLibrary.toUri().toURL()}, getClass().getClassLoader())) {
            LoadedPlugins loaded = PluginLoader.load(List.of(plugins), host);

            assertThat(loaded.failures()).isEmpty();
            assertThat(loaded.registry().source("lib-user-a").description()).isEqualTo("A");
            assertThat(loaded.registry().source("lib-user-b").description()).isEqualTo("B");
            assertThat(host.loadClass("com.example.lib.Greeter").getMethod("greet").invoke(null)).isEqualTo("host");
        }
    }

    @Test
    void pluginSeesTheSpiButNotMoverCore() {
        write("probe", "probe.jar", simplePlugin("com.example.probe", "probe", "1", "probe", "probe", TestPlugins.SEES_CORE));
        write("nosy", "nosy.jar", new TestJar().source("com.example.nosy.Plugin", TestPlugins.USES_CORE).service("com.example.nosy.Plugin")
                .compileAgainst(TestJar.locationOf(PluginRegistry.class)));

        LoadedPlugins loaded = PluginLoader.load(List.of(plugins));

        // mover-core is hidden through the plugin's loader and through the context loader; the SPI is shared.
        assertThat(loaded.registry().source("probe").description()).isEqualTo("hidden/hidden/visible");
        assertThat(loaded.failures()).singleElement().satisfies(failure -> {
            assertThat(failure.location()).endsWith("nosy");
            assertThat(failure.reason()).contains("io/mover/core/plugin/PluginRegistry").contains("a class the plugin needs is in none of its jars");
        });
    }

    @Test
    void misplacedJarEmptyDirectoryAndForeignSpiVersionAreReported() {
        goodPlugin("good");
        write("", "stray.jar", simplePlugin("com.example.stray", "stray", "1", "stray", "stray", "\"\""));
        assertThat(plugins.resolve("hollow").toFile().mkdir()).isTrue();
        write("future", "future.jar", simplePlugin("com.example.future", "future", "1", "future", "future", "\"\"")
                .manifestAttribute("Mover-Spi-Version", "2.0"));

        LoadedPlugins loaded = PluginLoader.load(List.of(plugins));

        assertThat(loaded.registry().descriptors()).extracting(PluginDescriptor::name).containsExactly("good");
        assertThat(loaded.failures()).extracting(PluginLoadFailure::reason).satisfiesExactly(
                future -> assertThat(future).contains("future.jar was built for SPI 2.0 but this mover has SPI 1."),
                hollow -> assertThat(hollow).contains("no .jar file"),
                stray -> assertThat(stray).contains("a plugin's jars go in a directory of their own"));
    }

    @Test
    void classPathPluginWinsOverADirectoryWithTheSameName() throws Exception {
        Path onClassPath = new TestJar().source("com.example.good.GoodPlugin", TestPlugins.GOOD).service("com.example.good.GoodPlugin")
                .writeTo(scratch.resolve("good.jar"), scratch);
        goodPlugin("good-copy");
        try (URLClassLoader host = new URLClassLoader(new URL[] {onClassPath.toUri().toURL()}, getClass().getClassLoader())) {
            LoadedPlugins loaded = PluginLoader.load(List.of(plugins), host);

            assertThat(loaded.registry().descriptors()).extracting(PluginDescriptor::location).containsExactly("classpath");
            assertThat(loaded.failures()).extracting(PluginLoadFailure::reason).containsExactly("plugin good is installed twice: good 1.2.3 (classpath) and good 1.2.3 ("
                    + plugins.resolve("good-copy") + "); remove one of them");
        }
    }

    private Path goodPlugin(String directory) {
        return write(directory, "good.jar", new TestJar().source("com.example.good.GoodPlugin", TestPlugins.GOOD).service("com.example.good.GoodPlugin"));
    }

    private static TestJar simplePlugin(String packageName, String name, String version, String sourceScheme, String sinkScheme, String description) {
        return new TestJar().source(packageName + ".Plugin", TestPlugins.simple(packageName, name, version, sourceScheme, sinkScheme, description))
                .service(packageName + ".Plugin");
    }

    private Path write(String directory, String jarName, TestJar jar) {
        return jar.writeTo(plugins.resolve(directory).resolve(jarName), scratch);
    }
}
