package io.mover.plugins.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mover.spi.Entry;
import io.mover.spi.EntryType;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.RelativePath;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The Linux listing ({@code getdents64} and {@code statx} through FFM) gives exactly the entries the JDK's listing gives (filters and gone entries: {@link LocalListingTest}). */
class NativeListingTest {
    @TempDir
    Path root;

    @BeforeEach
    void onLinux() {
        assumeTrue(NativeListing.available(), "getdents64 through FFM: Linux only");
    }

    @Test
    void entriesAreThoseOfTheJdkListing() throws IOException, InterruptedException {
        Path folder = Files.createDirectories(root.resolve("d"));
        Path file = Files.writeString(folder.resolve("f.txt"), "mover");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-x---"));
        Files.setLastModifiedTime(file, FileTime.from(Instant.parse("2021-03-04T05:06:07.123456789Z")));
        Files.createDirectory(folder.resolve("sub"));
        Files.createSymbolicLink(folder.resolve("link"), Path.of("f.txt"));
        Files.createSymbolicLink(folder.resolve("dangling"), Path.of("nowhere"));
        Files.writeString(folder.resolve("naïve ünïcode ✓"), "x");
        Files.writeString(folder.resolve(".hidden"), "");
        Files.writeString(folder.resolve("..dots"), "");
        new ProcessBuilder("mkfifo", folder.resolve("pipe").toString()).start().waitFor();
        for (boolean follow : new boolean[] {false, true}) {
            Map<String, Entry> jdk = listed(LocalListing.of(folder, RelativePath.of("d"), LocalFiles.linkOptions(follow), name -> true));
            Map<String, Entry> linux = listed(NativeListing.of(folder, RelativePath.of("d"), follow, name -> true));
            assertThat(linux).isEqualTo(jdk);
        }
        Map<String, Entry> linux = listed(NativeListing.of(folder, RelativePath.of("d"), false, name -> true));
        assertThat(linux).containsOnlyKeys("f.txt", "sub", "link", "dangling", "naïve ünïcode ✓", ".hidden", "..dots", "pipe");
        assertThat(linux.get("f.txt").size()).isEqualTo(5);
        assertThat(linux.get("f.txt").attributes().posixMode()).hasValue(0750);
        assertThat(linux.get("f.txt").lastModified()).isEqualTo(Instant.parse("2021-03-04T05:06:07.123456789Z"));
        assertThat(linux.get("f.txt").path()).isEqualTo(RelativePath.of("d/f.txt"));
        assertThat(linux.get("sub").type()).isEqualTo(EntryType.DIRECTORY);
        assertThat(linux.get("link").attributes().symlinkTarget()).hasValue("f.txt");
        assertThat(linux.get("pipe").type()).isEqualTo(EntryType.OTHER);
        // followed, a link is what it points to, and a dangling one is left out as the JDK's listing leaves it out
        Map<String, Entry> followed = listed(NativeListing.of(folder, RelativePath.of("d"), true, name -> true));
        assertThat(followed.get("link").type()).isEqualTo(EntryType.FILE);
        assertThat(followed).doesNotContainKey("dangling");
    }

    @Test
    void aDirectoryLargerThanOneReadIsListedWhole() throws IOException {
        // 3,000 names of 60 bytes: about 240 KiB of records, several getdents64 calls of 32 KiB
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            String name = String.format("%060d", i);
            names.add(name);
            Files.createFile(root.resolve(name));
        }
        Map<String, Entry> linux = listed(NativeListing.of(root, RelativePath.ROOT, false, name -> true));
        assertThat(linux.keySet()).containsExactlyElementsOf(names);
    }

    @Test
    void listingsOpenAtOnceAndOneAfterAnotherKeepTheirOwnEntries() throws IOException {
        // the native memory passes from an ended listing to the next: one still open must never share it
        for (int folder = 0; folder < 40; folder++) {
            Path dir = Files.createDirectories(root.resolve("d" + folder));
            for (int file = 0; file <= folder % 5; file++) {
                Files.writeString(dir.resolve(folder + "-" + file), "x".repeat(folder));
            }
        }
        for (int folder = 0; folder < 40; folder += 2) {
            try (Stream<Entry> first = NativeListing.of(root.resolve("d" + folder), RelativePath.ROOT, false, name -> true);
                    Stream<Entry> second = NativeListing.of(root.resolve("d" + (folder + 1)), RelativePath.ROOT, false, name -> true)) {
                Iterator<Entry> a = first.iterator();
                Iterator<Entry> b = second.iterator();
                List<String> names = new ArrayList<>();
                // bounded by the two folders' entries
                while (a.hasNext() || b.hasNext()) {
                    for (Iterator<Entry> side : List.of(a, b)) {
                        if (side.hasNext()) {
                            Entry entry = side.next();
                            int owner = Integer.parseInt(entry.path().name().split("-")[0]);
                            assertThat(entry.size()).isEqualTo(owner);
                            names.add(entry.path().name());
                        }
                    }
                }
                assertThat(names).hasSize(folder % 5 + 1 + (folder + 1) % 5 + 1);
            }
        }
    }

    @Test
    void aMissingDirectoryFailsAsTheJdkListingFails() {
        assertThatThrownBy(() -> NativeListing.of(root.resolve("absent"), RelativePath.ROOT, false, name -> true))
                .isInstanceOf(IOException.class)
                .satisfies(e -> assertThat(IoErrors.map((IOException) e, "list", root).code()).isEqualTo(ErrorCode.NOT_FOUND));
        assertThatThrownBy(() -> LocalFiles.list(root.resolve("absent"), RelativePath.ROOT, false, name -> true, true).count())
                .isInstanceOf(IOException.class);
    }

    @Test
    void theLocalSourceListsThroughItOnALocalDisk() throws IOException {
        Files.writeString(root.resolve("x"), "x");
        LocalSource source = new LocalSource(root, false);
        assumeTrue(source.onLocalDisk(), "the temporary directory is on a local disk");
        try (Stream<Entry> entries = source.list(RelativePath.ROOT)) {
            assertThat(entries.map(entry -> entry.path().toString()).toList()).containsExactly("x");
        }
        assertThatThrownBy(() -> source.list(RelativePath.of("absent"))).isInstanceOf(MoverException.class);
    }

    private static Map<String, Entry> listed(Stream<Entry> stream) {
        try (stream) {
            Map<String, Entry> byName = new TreeMap<>();
            stream.forEach(entry -> assertThat(byName.put(entry.path().name(), entry)).isNull());
            return byName;
        }
    }
}
