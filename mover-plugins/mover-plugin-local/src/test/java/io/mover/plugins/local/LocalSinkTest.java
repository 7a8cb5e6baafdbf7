package io.mover.plugins.local;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.mover.spi.Attributes;
import io.mover.spi.EndpointUri;
import io.mover.spi.Entry;
import io.mover.spi.EntryType;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.PluginConfig;
import io.mover.spi.PluginContext;
import io.mover.spi.RelativePath;
import io.mover.spi.Sink;
import io.mover.spi.SinkWriter;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** What the contract cannot know about a local tree: links, the temporary naming, any name the OS allows, modes. */
final class LocalSinkTest {
    private static final Instant MTIME = Instant.parse("2022-01-02T03:04:05.123456789Z");

    @TempDir
    private Path temporary;

    private Sink sink(Path root, String jobKey) {
        PluginContext context = new PluginContext(jobKey, temporary, Clock.systemUTC(), System.getLogger("test"));
        return new LocalSinkFactory().create(EndpointUri.parse(root.toString()), PluginConfig.EMPTY, context);
    }

    private static Entry commit(Sink sink, String path, String text, Attributes attributes) {
        RelativePath file = RelativePath.of(path);
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        SinkWriter writer = sink.create(file, bytes.length, new Entry(file, EntryType.FILE, bytes.length, MTIME, attributes));
        writer.write(0, ByteBuffer.wrap(bytes));
        return writer.commit();
    }

    /** With fsync, a file past WriteBehind.EVERY is flushed on its way (twice here); the commit waits for those and flushes last. */
    @Test
    void aLargeFileFlushedOnItsWayCommitsWhole() throws IOException {
        Path root = Files.createDirectories(temporary.resolve("durable"));
        Sink sink = new LocalSink(root, "job", true, false);
        int block = 1 << 20;
        long size = 2 * WriteBehind.EVERY + 4096;
        RelativePath file = RelativePath.of("large.bin");
        SinkWriter writer = sink.create(file, size, new Entry(file, EntryType.FILE, size, MTIME, Attributes.NONE));
        java.util.zip.CRC32C written = new java.util.zip.CRC32C();
        byte[] bytes = new byte[block];
        for (long position = 0; position < size; position += block) {
            int length = (int) Math.min(block, size - position);
            java.util.Arrays.fill(bytes, 0, length, (byte) (position / block + 1));
            written.update(bytes, 0, length);
            writer.write(position, ByteBuffer.wrap(bytes, 0, length));
        }
        assertThat(writer.commit().size()).isEqualTo(size);
        java.util.zip.CRC32C read = new java.util.zip.CRC32C();
        try (var in = Files.newInputStream(root.resolve("large.bin"))) {
            for (int n = in.read(bytes); n > 0; n = in.read(bytes)) {
                read.update(bytes, 0, n);
            }
        }
        assertThat(read.getValue()).isEqualTo(written.getValue());
        sink.close();
    }

    private static void assertInvalidPath(Runnable call) {
        assertThatThrownBy(call::run).isInstanceOf(MoverException.class)
                .satisfies(e -> assertThat(((MoverException) e).code()).isEqualTo(ErrorCode.INVALID_PATH))
                .hasMessageContaining("symbolic link");
    }

    @Test
    void aSymlinkedParentThatEscapesTheRootIsRefused() throws IOException {
        Path root = Files.createDirectories(temporary.resolve("root"));
        Path outside = Files.createDirectories(temporary.resolve("outside"));
        Files.writeString(outside.resolve("victim"), "keep");
        Files.createSymbolicLink(root.resolve("escape"), outside);
        try (Sink sink = sink(root, "job")) {
            RelativePath through = RelativePath.of("escape/victim");
            assertInvalidPath(() -> sink.create(through, 1, Entry.file(through, 1, MTIME)).abort());
            assertInvalidPath(() -> sink.create(RelativePath.of("escape/new"), 1, Entry.file(through, 1, MTIME)).abort());
            assertInvalidPath(() -> sink.mkdirs(RelativePath.of("escape/sub")));
            assertInvalidPath(() -> sink.delete(through, false));
            assertInvalidPath(() -> sink.delete(RelativePath.of("escape/deep/er"), true));
            assertInvalidPath(() -> sink.setAttributes(through, Entry.file(through, 4, MTIME)));
            assertInvalidPath(() -> sink.list(RelativePath.of("escape/deeper")).close());
            assertInvalidPath(() -> sink.stat(through));
        }
        assertThat(Files.readString(outside.resolve("victim"))).isEqualTo("keep");
        try (Stream<Path> left = Files.list(outside)) {
            assertThat(left.map(file -> file.getFileName().toString()).toList()).containsExactly("victim");
        }
    }

    @Test
    void aSymlinkToADirectoryInsideTheRootMayBePassedThrough() throws IOException {
        Path root = Files.createDirectories(temporary.resolve("root"));
        Files.createDirectories(root.resolve("real"));
        Files.createSymbolicLink(root.resolve("alias"), root.resolve("real"));
        try (Sink sink = sink(root, "job")) {
            sink.mkdirs(RelativePath.of("alias/sub"));
            commit(sink, "alias/sub/f", "via link", Attributes.NONE);
        }
        assertThat(Files.readString(root.resolve("real/sub/f"))).isEqualTo("via link");
    }

    @Test
    void removeStaleTemporariesRemovesOnlyThisJobsTemporaries() throws IOException {
        Path root = Files.createDirectories(temporary.resolve("root"));
        List<String> mine = List.of(".mover.job-a.0123456789ab.file", ".mover.job-a.ba9876543210.other name");
        List<String> kept = List.of(".mover.job-ab.0123456789ab.file", ".mover.job-b.0123456789ab.file",
                ".mover.job-a.notes", ".mover.job-a.0123456789AB.file", ".mover.job-a.0123456789ab.");
        for (String name : mine) {
            Files.writeString(root.resolve(name), "stale");
        }
        for (String name : kept) {
            Files.writeString(root.resolve(name), "not ours");
        }
        try (Sink sink = sink(root, "job-a")) {
            SinkWriter open = sink.create(RelativePath.of("busy"), 1, Entry.file(RelativePath.of("busy"), 1, MTIME));
            open.write(0, ByteBuffer.wrap(new byte[] {1}));
            assertThat(sink.removeStaleTemporaries(RelativePath.ROOT)).isEqualTo(2);
            assertThat(sink.removeStaleTemporaries(RelativePath.of("missing"))).isZero();
            open.commit();
        }
        try (Stream<Path> left = Files.list(root)) {
            Set<String> names = left.map(file -> file.getFileName().toString()).collect(Collectors.toSet());
            assertThat(names).containsAll(kept).contains("busy").doesNotContainAnyElementsOf(mine);
        }
    }

    @Test
    void carriesAnyNameTheFileSystemAllows() throws IOException {
        Path root = Files.createDirectories(temporary.resolve("root"));
        List<String> names = List.of("new\nline", "tab\there", " leading and trailing ", "...", "*?<>|\":",
                ".mover.looks-like-ours", ".hidden", "UPPER", "upper", "\u0001control", "a".repeat(255));
        try (Sink sink = sink(root, "job")) {
            for (String name : names) {
                sink.mkdirs(RelativePath.of("d").resolve(name));
                commit(sink, "d/" + name + "/" + name, name, Attributes.NONE);
            }
            try (Stream<Entry> listed = sink.list(RelativePath.of("d"))) {
                assertThat(listed.map(entry -> entry.path().name()).toList()).containsExactlyInAnyOrderElementsOf(names);
            }
            for (String name : names) {
                assertThat(sink.stat(RelativePath.of("d/" + name + "/" + name))).get().extracting(Entry::size)
                        .isEqualTo((long) name.getBytes(StandardCharsets.UTF_8).length);
            }
        }
        for (String name : names) {
            assertThat(Files.readString(root.resolve("d").resolve(name).resolve(name))).isEqualTo(name);
        }
    }

    @Test
    void preservesTheModeAndTheNanosecondModificationTime() throws IOException {
        assumeTrue(LocalFiles.POSIX, "POSIX modes");
        Path root = Files.createDirectories(temporary.resolve("root"));
        try (Sink sink = sink(root, "job")) {
            Entry script = commit(sink, "run.sh", "#!/bin/sh", Attributes.ofMode(0755));
            Entry secret = commit(sink, "secret", "s3cr3t", Attributes.ofMode(0600));
            assertThat(script.attributes().posixMode()).hasValue(0755);
            assertThat(secret.attributes().posixMode()).hasValue(0600);
            assertThat(script.lastModified()).isEqualTo(MTIME);
            sink.mkdirs(RelativePath.of("private"));
            sink.setAttributes(RelativePath.of("private"), new Entry(RelativePath.of("private"), EntryType.DIRECTORY, 0, MTIME, Attributes.ofMode(0700)));
        }
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(root.resolve("run.sh")))).isEqualTo("rwxr-xr-x");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(root.resolve("secret")))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(root.resolve("private")))).isEqualTo("rwx------");
        assertThat(Files.getLastModifiedTime(root.resolve("private")).toInstant()).isEqualTo(MTIME);
    }

    @Test
    void keepsEmptyFoldersAndTheirTimes() throws IOException {
        Path root = Files.createDirectories(temporary.resolve("root"));
        try (Sink sink = sink(root, "job")) {
            assertThat(sink.mkdirs(RelativePath.of("empty/also-empty"))).isTrue();
            sink.setAttributes(RelativePath.of("empty/also-empty"), Entry.directory(RelativePath.of("empty/also-empty"), MTIME));
            try (Stream<Entry> listed = sink.list(RelativePath.of("empty"))) {
                assertThat(listed.toList()).singleElement().satisfies(entry -> {
                    assertThat(entry.type()).isEqualTo(EntryType.DIRECTORY);
                    assertThat(entry.lastModified()).isEqualTo(MTIME);
                });
            }
        }
        assertThat(Files.isDirectory(root.resolve("empty/also-empty"))).isTrue();
    }

    @Test
    void aFileAtTheRootPathIsRefusedAsADestination() throws IOException {
        Path file = Files.writeString(temporary.resolve("a-file"), "x");
        assertThatThrownBy(() -> sink(file, "job")).isInstanceOf(MoverException.class)
                .satisfies(e -> assertThat(((MoverException) e).code()).isEqualTo(ErrorCode.NOT_A_DIRECTORY));
    }

    @Test
    void hardLinksNameAFileInsideTheRootAndNeverOneReachedThroughALinkOut() throws IOException {
        Path root = Files.createDirectories(temporary.resolve("root"));
        Path outside = Files.createDirectories(temporary.resolve("outside"));
        Files.writeString(outside.resolve("secret.txt"), "secret");
        Files.createSymbolicLink(root.resolve("out"), outside);
        Sink sink = sink(root, "job");
        commit(sink, "a.txt", "content", Attributes.NONE);

        ((io.mover.spi.HardLinks) sink).createHardLink(RelativePath.of("b.txt"), RelativePath.of("a.txt"));

        assertThat(Files.isSameFile(root.resolve("a.txt"), root.resolve("b.txt"))).isTrue();
        assertInvalidPath(() -> ((io.mover.spi.HardLinks) sink).createHardLink(RelativePath.of("c.txt"), RelativePath.of("out/secret.txt")));
        assertThatThrownBy(() -> ((io.mover.spi.HardLinks) sink).createHardLink(RelativePath.of("d.txt"), RelativePath.of("out")))
                .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND));
        assertThat(root.resolve("c.txt")).doesNotExist();
        assertThat(root.resolve("d.txt")).doesNotExist();
        try (Stream<Path> files = Files.list(root)) {
            assertThat(files.map(path -> path.getFileName().toString())).containsExactlyInAnyOrder("a.txt", "b.txt", "out");
        }
    }
}
