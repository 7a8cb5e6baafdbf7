package io.mover.core.plugin;

/** Sources of the plugins the loader tests compile into jars. */
final class TestPlugins {
    private TestPlugins() {}

    /**
     * A plugin {@code good} with a source, a sink and a codec. Every method checks that it runs with the
     * plugin's class loader as the context class loader and throws otherwise. The sink also has the
     * {@code SymbolicLinks} and {@code ServerSideCopy} abilities; the source has {@code RecursiveList}.
     */
    static final String GOOD = """
            package com.example.good;

            import java.nio.ByteBuffer;
            import java.time.Instant;
            import java.util.List;
            import java.util.Optional;
            import java.util.stream.Stream;
            import io.mover.spi.*;

            public final class GoodPlugin implements MoverPlugin {
                static void check() {
                    ClassLoader context = Thread.currentThread().getContextClassLoader();
                    if (context != GoodPlugin.class.getClassLoader()) {
                        throw new IllegalStateException("called under context class loader " + context);
                    }
                }

                public String name() { check(); return "good"; }
                public String version() { return "1.2.3"; }
                public List<SourceFactory> sourceFactories() { check(); return List.of(new Sources()); }
                public List<SinkFactory> sinkFactories() { check(); return List.of(new Sinks()); }
                public List<CodecFactory> codecFactories() { check(); return List.of(new Codecs()); }

                static final class Sources implements SourceFactory {
                    public String scheme() { return "good"; }
                    public String description() { check(); return "good files"; }
                    public Source create(EndpointUri uri, PluginConfig config, PluginContext context) { check(); return new GoodSource(); }
                }

                static final class GoodSource implements Source, RecursiveList {
                    public EndpointInfo info() { check(); return new EndpointInfo(java.time.Duration.ofMillis(1), java.util.Set.of(), true, false, true); }
                    public Optional<Entry> stat(RelativePath path) { check(); return Optional.empty(); }
                    public Stream<Entry> list(RelativePath directory) {
                        check();
                        // Lazy: each element is made when the engine pulls it, and must still see our loader.
                        return Stream.of(1, 2, 3).map(i -> { check(); return Entry.file(RelativePath.of("f" + i), i, Instant.EPOCH); });
                    }
                    public Stream<Entry> listRecursively(RelativePath directory) { return list(directory); }
                    public SourceReader open(RelativePath path) {
                        check();
                        return new SourceReader() {
                            public long size() { check(); return 0; }
                            public int read(long position, ByteBuffer destination) { check(); return 0; }
                            public void close() { check(); }
                        };
                    }
                    public void close() { check(); }
                }

                static final class Sinks implements SinkFactory {
                    public String scheme() { return "good"; }
                    public Sink create(EndpointUri uri, PluginConfig config, PluginContext context) { check(); return new GoodSink(); }
                }

                static final class GoodSink implements Sink, SymbolicLinks, ServerSideCopy {
                    public EndpointInfo info() { check(); return new EndpointInfo(java.time.Duration.ofMillis(1), java.util.Set.of(), true, false, true); }
                    public Optional<Entry> stat(RelativePath path) { check(); return Optional.empty(); }
                    public Stream<Entry> list(RelativePath directory) { check(); return Stream.empty(); }
                    public boolean mkdirs(RelativePath directory) { check(); return true; }
                    public SinkWriter create(RelativePath path, long size, Entry entry) {
                        check();
                        return new SinkWriter() {
                            public void write(long position, ByteBuffer source) { check(); source.position(source.limit()); }
                            public Entry commit() { check(); return entry; }
                            public void abort() { check(); }
                        };
                    }
                    public void delete(RelativePath path, boolean recursive) { check(); }
                    public void setAttributes(RelativePath path, Entry entry) { check(); }
                    public void createSymbolicLink(RelativePath path, String target) { check(); }
                    public Optional<Entry> copyFrom(Source source, Entry entry, RelativePath target) {
                        check();
                        // Only our own sources can be copied server-side: the wrapper must hand us the real one.
                        return source instanceof GoodSource ? Optional.of(entry) : Optional.empty();
                    }
                    public void close() { check(); }
                }

                static final class Codecs implements CodecFactory {
                    public String name() { return "good-codec"; }
                    public byte wireId() { return 100; }
                    public Codec create(int level) {
                        check();
                        return new Codec() {
                            public String name() { return "good-codec"; }
                            public byte wireId() { return 100; }
                            public int maxCompressedLength(int inputLength) { check(); return inputLength; }
                            public int compress(ByteBuffer input, ByteBuffer output) { check(); int n = input.remaining(); output.put(input); return n; }
                            public int decompress(ByteBuffer input, ByteBuffer output, int rawLength) { check(); output.put(input); return rawLength; }
                        };
                    }
                }
            }
            """;

    /**
     * A plugin with one source factory of {@code sourceScheme} and one sink factory of {@code sinkScheme},
     * whose source factory's {@code description()} returns the value of {@code description} (a Java
     * expression evaluated at each call, inside the plugin).
     */
    static String simple(String packageName, String name, String version, String sourceScheme, String sinkScheme, String description) {
        return """
                package %1$s;

                import java.util.List;
                import io.mover.spi.*;

                public final class Plugin implements MoverPlugin {
                    public String name() { return "%2$s"; }
                    public String version() { return "%3$s"; }

                    static String visible(String className, ClassLoader loader) {
                        try {
                            Class.forName(className, false, loader);
                            return "visible";
                        }
                        catch (ClassNotFoundException e) {
                            return "hidden";
                        }
                    }

                    public List<SourceFactory> sourceFactories() {
                        return List.of(new SourceFactory() {
                            public String scheme() { return "%4$s"; }
                            public String description() { return %6$s; }
                            public Source create(EndpointUri uri, PluginConfig config, PluginContext context) {
                                throw new MoverException(ErrorCode.UNSUPPORTED, "test plugin");
                            }
                        });
                    }

                    public List<SinkFactory> sinkFactories() {
                        return List.of(new SinkFactory() {
                            public String scheme() { return "%5$s"; }
                            public Sink create(EndpointUri uri, PluginConfig config, PluginContext context) {
                                throw new MoverException(ErrorCode.UNSUPPORTED, "test plugin");
                            }
                        });
                    }
                }
                """.formatted(packageName, name, version, sourceScheme, sinkScheme, description);
    }

    /** A plugin whose constructor throws, as one would when its licence file is missing. */
    static final String THROWING = """
            package com.example.boom;

            public final class Plugin implements io.mover.spi.MoverPlugin {
                public Plugin() { throw new IllegalStateException("licence file missing"); }
                public String name() { return "boom"; }
                public String version() { return "1"; }
            }
            """;

    /** A plugin that uses a mover-core class: it compiles against mover-core, but cannot load in isolation. */
    static final String USES_CORE = """
            package com.example.nosy;

            public final class Plugin implements io.mover.spi.MoverPlugin {
                private final Object registry = io.mover.core.plugin.PluginRegistry.fromClassPath();
                public String name() { return "nosy"; }
                public String version() { return "1"; }
            }
            """;

    /** A library class, in a version that says which one it is. */
    static String greeter(String version) {
        return """
                package com.example.lib;

                public final class Greeter {
                    public static String greet() { return "%s"; }
                }
                """.formatted(version);
    }

    /** An expression that says whether mover-core, then the SPI, can be seen from inside the plugin. */
    static final String SEES_CORE = "visible(\"io.mover.core.plugin.PluginRegistry\", getClass().getClassLoader()) + \"/\""
            + " + visible(\"io.mover.core.plugin.PluginRegistry\", Thread.currentThread().getContextClassLoader()) + \"/\""
            + " + visible(\"io.mover.spi.Source\", getClass().getClassLoader())";
}
