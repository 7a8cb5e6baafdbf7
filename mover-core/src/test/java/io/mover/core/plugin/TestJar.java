package io.mover.core.plugin;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

import io.mover.spi.MoverPlugin;

import static java.util.Objects.requireNonNull;

/**
 * Builds a real jar during a test: Java sources compiled with the JDK's compiler, resources, and a
 * manifest. Sources compile against the SPI (and whatever {@link #compileAgainst} adds), like a plugin.
 */
final class TestJar {
    private final Map<String, String> sources = new LinkedHashMap<>();
    private final Map<String, String> resources = new LinkedHashMap<>();
    private final List<Path> classPath = new ArrayList<>(List.of(locationOf(MoverPlugin.class)));
    private final Manifest manifest = new Manifest();

    TestJar() {
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    }

    /** A class, by its fully qualified name, from its source code. */
    TestJar source(String className, String code) {
        sources.put(requireNonNull(className, "className is null"), requireNonNull(code, "code is null"));
        return this;
    }

    TestJar resource(String path, String text) {
        resources.put(path, text);
        return this;
    }

    /** Declares {@code implementation} in {@code META-INF/services/io.mover.spi.MoverPlugin}. */
    TestJar service(String implementation) {
        return resource("META-INF/services/" + MoverPlugin.class.getName(), implementation + "\n");
    }

    TestJar manifestAttribute(String name, String value) {
        manifest.getMainAttributes().putValue(name, value);
        return this;
    }

    /** Adds a jar or class directory to the compile class path (not to the jar). */
    TestJar compileAgainst(Path entry) {
        classPath.add(entry);
        return this;
    }

    /** Compiles in a scratch directory next to nothing the loader scans, and writes the jar to {@code jar}. */
    Path writeTo(Path jar, Path scratch) {
        try {
            Path classes = Files.createTempDirectory(scratch, "classes");
            compile(classes);
            resources.forEach((path, text) -> write(classes.resolve(path), text));
            Files.createDirectories(jar.toAbsolutePath().getParent());
            try (OutputStream out = Files.newOutputStream(jar); JarOutputStream jarOut = new JarOutputStream(out, manifest);
                    Stream<Path> files = Files.walk(classes, 32)) {
                for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
                    jarOut.putNextEntry(new JarEntry(classes.relativize(file).toString().replace('\\', '/')));
                    jarOut.write(Files.readAllBytes(file));
                    jarOut.closeEntry();
                }
            }
            return jar;
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void compile(Path classes) throws IOException {
        if (sources.isEmpty()) {
            return;
        }
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        List<JavaFileObject> units = sources.entrySet().stream().map(entry -> (JavaFileObject) new StringSource(entry.getKey(), entry.getValue())).toList();
        String path = classPath.stream().map(Path::toString).collect(Collectors.joining(java.io.File.pathSeparator));
        try (StandardJavaFileManager files = compiler.getStandardFileManager(diagnostics, null, StandardCharsets.UTF_8)) {
            boolean ok = compiler.getTask(null, files, diagnostics, List.of("-d", classes.toString(), "-classpath", path, "-proc:none"), null, units).call();
            if (!ok) {
                throw new AssertionError("test plugin does not compile: " + diagnostics.getDiagnostics());
            }
        }
    }

    private static void write(Path file, String text) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, text);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The jar or class directory a class was loaded from. */
    static Path locationOf(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        }
        catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static final class StringSource extends SimpleJavaFileObject {
        private final String code;

        StringSource(String className, String code) {
            super(URI.create("string:///" + className.replace('.', '/') + Kind.SOURCE.extension), Kind.SOURCE);
            this.code = code;
        }

        @Override
        public CharSequence getCharContent(boolean ignoreEncodingErrors) {
            return code;
        }
    }
}
