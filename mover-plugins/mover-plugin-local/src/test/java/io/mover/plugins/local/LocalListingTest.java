package io.mover.plugins.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mover.spi.Entry;
import io.mover.spi.EntryType;
import io.mover.spi.RelativePath;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The local listings' iterators (the JDK's, and Linux's where there is one): what each entry carries, names left out, entries gone before they are read. */
class LocalListingTest {
    private static final LinkOption[] NO_FOLLOW = {LinkOption.NOFOLLOW_LINKS};

    @TempDir
    Path root;

    @Test
    void entriesCarryTypeSizeModeTimeAndLinkTarget() throws IOException {
        Path folder = Files.createDirectories(root.resolve("d"));
        Path file = Files.writeString(folder.resolve("f.txt"), "mover");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));
        Files.createDirectory(folder.resolve("sub"));
        Files.createSymbolicLink(folder.resolve("link"), Path.of("f.txt"));
        Map<String, Entry> listed;
        try (Stream<Entry> entries = LocalListing.of(folder, RelativePath.of("d"), NO_FOLLOW, name -> true)) {
            listed = entries.collect(Collectors.toMap(entry -> entry.path().name(), Function.identity()));
        }
        assertThat(listed).containsOnlyKeys("f.txt", "sub", "link");
        Entry entry = listed.get("f.txt");
        assertThat(entry.path()).isEqualTo(RelativePath.of("d/f.txt"));
        assertThat(entry.type()).isEqualTo(EntryType.FILE);
        assertThat(entry.size()).isEqualTo(5);
        assertThat(entry.lastModified()).isEqualTo(Files.getLastModifiedTime(file).toInstant());
        assertThat(entry.attributes().posixMode()).hasValue(0640);
        assertThat(listed.get("sub").type()).isEqualTo(EntryType.DIRECTORY);
        assertThat(listed.get("sub").size()).isZero();
        assertThat(listed.get("link").type()).isEqualTo(EntryType.SYMLINK);
        assertThat(listed.get("link").attributes().symlinkTarget()).hasValue("f.txt");
    }

    /** One directory's listing by one of the two implementations. */
    interface Lister {
        Stream<Entry> list(Path directory, java.util.function.Predicate<String> keep) throws IOException;
    }

    @Test
    void namesTheFilterRefusesAndEntriesGoneBeforeTheirReadAreLeftOut() throws IOException {
        leavesOutFilteredAndGoneEntries((directory, keep) -> LocalListing.of(directory, RelativePath.ROOT, NO_FOLLOW, keep), root.resolve("jdk"));
        if (NativeListing.available()) {
            leavesOutFilteredAndGoneEntries((directory, keep) -> NativeListing.of(directory, RelativePath.ROOT, false, keep), root.resolve("linux"));
        }
    }

    private static void leavesOutFilteredAndGoneEntries(Lister lister, Path folder) throws IOException {
        Files.createDirectories(folder);
        for (String name : List.of("a", "b", "c", "skip-me", "gone")) {
            Files.writeString(folder.resolve(name), name);
        }
        try (Stream<Entry> entries = lister.list(folder, name -> !name.startsWith("skip"))) {
            Iterator<Entry> iterator = entries.iterator();
            // the listing is lazy: a file deleted now is either not returned by the directory or not found by its stat
            Files.delete(folder.resolve("gone"));
            List<String> names = new java.util.ArrayList<>();
            iterator.forEachRemaining(entry -> names.add(entry.path().toString()));
            assertThat(names).containsExactlyInAnyOrder("a", "b", "c");
            assertThat(iterator.hasNext()).isFalse();
            assertThatThrownBy(iterator::next).isInstanceOf(NoSuchElementException.class);
        }
    }
}
