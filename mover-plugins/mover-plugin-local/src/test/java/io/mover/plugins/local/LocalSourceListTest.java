package io.mover.plugins.local;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mover.spi.Entry;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.RelativePath;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link LocalSource#list}: the folder is opened without a stat of it first, and only a failure asks why, so a file or a
 * missing folder still says so (the codes the sync's walk tells apart: a folder gone from the destination is empty).
 */
class LocalSourceListTest {
    @TempDir
    Path root;

    @Test
    void listsAFolderAndAFolderReachedThroughALink() throws Exception {
        Files.createDirectories(root.resolve("d"));
        Files.writeString(root.resolve("d/f.txt"), "mover");
        Files.createSymbolicLink(root.resolve("link"), root.resolve("d"));
        LocalSource source = new LocalSource(root, false);

        try (Stream<Entry> entries = source.list(RelativePath.of("d"))) {
            assertThat(entries.map(entry -> entry.path().toString()).toList()).isEqualTo(List.of("d/f.txt"));
        }
        // as isDirectory did, the open follows a link: a source root given as a link is listed
        try (Stream<Entry> entries = new LocalSource(root.resolve("link"), false).list(RelativePath.ROOT)) {
            assertThat(entries.map(entry -> entry.path().toString()).toList()).isEqualTo(List.of("f.txt"));
        }
    }

    @Test
    void aFileOrAMissingFolderSaysWhichItIs() throws Exception {
        Files.writeString(root.resolve("file"), "x");
        LocalSource source = new LocalSource(root, false);

        assertThatThrownBy(() -> source.list(RelativePath.of("file")))
                .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_A_DIRECTORY))
                .hasMessageContaining("not a directory");
        assertThatThrownBy(() -> source.list(RelativePath.of("missing")))
                .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND))
                .hasMessageContaining("no such directory");
    }
}
