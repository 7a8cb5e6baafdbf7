package io.mover.plugins.nfs;

import io.mover.spi.Entry;
import io.mover.spi.EntryType;
import io.mover.spi.PluginContext;
import io.mover.spi.RelativePath;
import io.mover.spi.Sink;
import io.mover.spi.Source;
import io.mover.spi.SourceReader;
import io.mover.spi.SymbolicLinks;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Symbolic links through ganesha: READLINK for a source's listing (links as links with their targets, or followed
 * inside the export with {@code follow-symlinks}), SYMLINK and RENAME for a sink's {@link SymbolicLinks}.
 */
@Timeout(120)
@ExtendWith(GaneshaExtension.class)
class NfsSymlinkTest {
    @TempDir
    Path scratch;

    private PluginContext context() {
        return new PluginContext("links", scratch, Clock.systemUTC(), System.getLogger("test"));
    }

    /** A tree on the server's disk: a file, a folder, and links of every kind to them and elsewhere. */
    private static void tree(Path root) throws Exception {
        Files.createDirectories(root.resolve("sub/deeper"));
        Files.writeString(root.resolve("data.txt"), "the data");
        Files.writeString(root.resolve("sub/inner.txt"), "inner");
        Files.createSymbolicLink(root.resolve("to-file"), Path.of("data.txt"));
        Files.createSymbolicLink(root.resolve("to-dir"), Path.of("sub"));
        Files.createSymbolicLink(root.resolve("sub/deeper/up-and-over"), Path.of("../../data.txt"));
        Files.createSymbolicLink(root.resolve("chain"), Path.of("to-file"));
        Files.createSymbolicLink(root.resolve("dangling"), Path.of("nowhere"));
        Files.createSymbolicLink(root.resolve("absolute"), Path.of("/etc/hostname"));
        Files.createSymbolicLink(root.resolve("sub/loop"), Path.of(".."));
    }

    private static Map<String, Entry> byName(Source source, String directory) {
        return source.list(directory.isEmpty() ? RelativePath.ROOT : RelativePath.of(directory))
                .collect(Collectors.toMap(entry -> entry.path().name(), Function.identity()));
    }

    @Test
    void aSourceListsLinksWithTheirTargetsAndFollowsThemInsideTheExportWhenAsked(Ganesha ganesha) throws Exception {
        tree(ganesha.folder("links-src"));
        try (Source source = new NfsSourceFactory().create(ganesha.uri("links-src"), ganesha.config(), context())) {
            Map<String, Entry> top = byName(source, "");
            assertThat(top.get("to-file").type()).isEqualTo(EntryType.SYMLINK);
            assertThat(top.get("to-file").attributes().symlinkTarget()).contains("data.txt");
            assertThat(top.get("absolute").attributes().symlinkTarget()).contains("/etc/hostname");
            assertThat(top.get("dangling").attributes().symlinkTarget()).contains("nowhere");
            assertThat(source.stat(RelativePath.of("to-dir")).orElseThrow().attributes().symlinkTarget()).contains("sub");
        }

        try (Source source = new NfsSourceFactory().create(ganesha.uri("links-src"), ganesha.config("follow-symlinks", "true"), context())) {
            Map<String, Entry> top = byName(source, "");
            assertThat(top.get("to-file").type()).isEqualTo(EntryType.FILE);
            assertThat(top.get("to-file").size()).isEqualTo("the data".length());
            assertThat(top.get("chain").type()).as("a link to a link").isEqualTo(EntryType.FILE);
            assertThat(top.get("to-dir").type()).isEqualTo(EntryType.DIRECTORY);
            assertThat(top).as("a dangling link is left out, as the local plugin does").doesNotContainKey("dangling");
            assertThat(top.get("absolute").type()).as("an absolute target names a client's path: not followed").isEqualTo(EntryType.SYMLINK);

            Map<String, Entry> viaLink = byName(source, "to-dir");
            assertThat(viaLink.get("inner.txt").type()).isEqualTo(EntryType.FILE);
            assertThat(viaLink.get("loop").type()).as("a link back to an ancestor stays a link").isEqualTo(EntryType.SYMLINK);
            assertThat(byName(source, "to-dir/deeper").get("up-and-over").type()).as("resolved from where the link really is")
                    .isEqualTo(EntryType.FILE);
            try (SourceReader reader = source.open(RelativePath.of("to-dir/deeper/up-and-over"))) {
                ByteBuffer bytes = ByteBuffer.allocate(64);
                reader.read(0, bytes);
                assertThat(new String(bytes.array(), 0, bytes.position(), StandardCharsets.UTF_8)).isEqualTo("the data");
            }
        }
    }

    @Test
    void aSinkCreatesLinksAtomicallyReplacingWhatIsThere(Ganesha ganesha) throws Exception {
        Path stored = ganesha.folder("links-dst");
        try (Sink sink = new NfsSinkFactory().create(ganesha.uri("links-dst"), ganesha.config(), context())) {
            assertThat(sink).isInstanceOf(SymbolicLinks.class);
            sink.mkdirs(RelativePath.of("d"));
            ((SymbolicLinks) sink).createSymbolicLink(RelativePath.of("d/link"), "../somewhere/else");
            assertThat(Files.readSymbolicLink(stored.resolve("d/link"))).isEqualTo(Path.of("../somewhere/else"));

            ((SymbolicLinks) sink).createSymbolicLink(RelativePath.of("d/link"), "another target");
            assertThat(Files.readSymbolicLink(stored.resolve("d/link"))).isEqualTo(Path.of("another target"));
            Entry listed = sink.list(RelativePath.of("d")).findFirst().orElseThrow();
            assertThat(listed.type()).isEqualTo(EntryType.SYMLINK);
            assertThat(listed.attributes().symlinkTarget()).contains("another target");
            try (var names = Files.list(stored.resolve("d"))) {
                assertThat(names.map(path -> path.getFileName().toString())).containsExactly("link");
            }

            sink.delete(RelativePath.of("d/link"), false);
            assertThat(Files.exists(stored.resolve("d/link"), java.nio.file.LinkOption.NOFOLLOW_LINKS)).isFalse();
        }
    }
}
