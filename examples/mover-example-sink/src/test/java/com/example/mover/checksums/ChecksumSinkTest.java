package com.example.mover.checksums;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

import io.mover.spi.ConfigSpec;
import io.mover.spi.ContentHashes;
import io.mover.spi.EndpointUri;
import io.mover.spi.Entry;
import io.mover.spi.MoverPlugin;
import io.mover.spi.PluginContext;
import io.mover.spi.RelativePath;
import io.mover.spi.Sink;
import io.mover.spi.SinkWriter;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What is particular to this sink: the sidecars, its configuration, and how mover finds it. */
final class ChecksumSinkTest {
    @TempDir
    private Path temporary;

    private Sink sink(Path root) {
        PluginContext context = new PluginContext("job", temporary, Clock.systemUTC(), System.getLogger("test"));
        ChecksumSinkFactory factory = new ChecksumSinkFactory();
        return factory.create(EndpointUri.parse("example://" + root.toUri().getRawPath()), factory.configSpec().parse(Map.of()), context);
    }

    private static String sha256(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }

    private static void write(Sink sink, String path, byte[] bytes) {
        RelativePath file = RelativePath.of(path);
        SinkWriter writer = sink.create(file, bytes.length, Entry.file(file, bytes.length, Instant.EPOCH));
        // second half first: the checksum must not depend on the order of writes
        writer.write(bytes.length / 2, ByteBuffer.wrap(bytes, bytes.length / 2, bytes.length - bytes.length / 2));
        writer.write(0, ByteBuffer.wrap(bytes, 0, bytes.length / 2));
        writer.commit();
    }

    @Test
    void keepsAChecksumSidecarPerCommittedFile() throws Exception {
        Path root = temporary.resolve("store");
        byte[] bytes = "some content worth a checksum".getBytes(StandardCharsets.UTF_8);
        try (Sink sink = sink(root)) {
            sink.mkdirs(RelativePath.of("docs"));
            write(sink, "docs/a.txt", bytes);
            assertThat(Files.readString(root.resolve(".checksums/docs/a.txt.sha256")).strip()).isEqualTo(sha256(bytes));
            assertThat(((ContentHashes) sink).hash(RelativePath.of("docs/a.txt"), "sha256")).contains(sha256(bytes));
            assertThat(sink.info().hashKinds()).containsExactly("sha256");

            write(sink, "docs/a.txt", new byte[] {1, 2, 3});
            assertThat(((ContentHashes) sink).hash(RelativePath.of("docs/a.txt"), "sha256")).contains(sha256(new byte[] {1, 2, 3}));

            sink.delete(RelativePath.of("docs/a.txt"), false);
            assertThat(root.resolve(".checksums/docs/a.txt.sha256")).doesNotExist();
            assertThat(((ContentHashes) sink).hash(RelativePath.of("docs/a.txt"), "sha256")).isEmpty();
        }
    }

    @Test
    void aNameTooLongForTheSuffixGetsAHashedSidecarName() throws Exception {
        Path root = temporary.resolve("store");
        String name = "x".repeat(255);
        try (Sink sink = sink(root)) {
            write(sink, name, new byte[] {42});
            assertThat(((ContentHashes) sink).hash(RelativePath.of(name), "sha256")).contains(sha256(new byte[] {42}));
        }
        String hashedName = sha256(name.getBytes(StandardCharsets.UTF_8)) + ".long.sha256";
        assertThat(root.resolve(".checksums").resolve(hashedName)).exists();
    }

    @Test
    void declaresItsConfigurationAndRejectsUnknownKeys() {
        ConfigSpec spec = new ChecksumSinkFactory().configSpec();
        assertThat(spec.parse(Map.of()).bool("fsync")).contains(false);
        assertThat(spec.parse(Map.of("fsync", "yes")).bool("fsync")).contains(true);
        assertThatThrownBy(() -> spec.parse(Map.of("fsync", "maybe", "colour", "blue")))
                .isInstanceOf(ConfigSpec.InvalidConfigException.class)
                .satisfies(e -> assertThat(((ConfigSpec.InvalidConfigException) e).problems()).hasSize(2));
    }

    @Test
    void isFoundByTheServiceLoader() {
        List<MoverPlugin> plugins = ServiceLoader.load(MoverPlugin.class).stream().map(ServiceLoader.Provider::get).toList();
        assertThat(plugins).singleElement().satisfies(plugin -> {
            assertThat(plugin.name()).isEqualTo("example-sink");
            assertThat(plugin.sinkFactories()).singleElement().satisfies(factory -> assertThat(factory.scheme()).isEqualTo("example"));
            assertThat(plugin.sourceFactories()).isEmpty();
        });
    }

    @Test
    void refusesAFileAsTheStoreRoot() throws Exception {
        Path file = Files.writeString(temporary.resolve("file"), "x");
        assertThatThrownBy(() -> sink(file)).hasMessageContaining("is a file");
    }
}
