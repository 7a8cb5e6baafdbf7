package io.mover.testkit;

import java.nio.charset.StandardCharsets;
import java.util.OptionalLong;
import java.util.Set;

import io.mover.spi.Entry;
import io.mover.spi.EntryType;
import io.mover.spi.ErrorCategory;
import io.mover.spi.ErrorCode;
import io.mover.spi.FreeSpace;
import io.mover.spi.MoverException;
import io.mover.spi.RelativePath;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Listing, directories, delete and the error codes of the tree operations of a {@link io.mover.spi.Sink}. */
public interface SinkTreeCases extends SinkFixture {
    @Test
    default void aFreshSinkListsAnEmptyRoot() {
        assertEquals(Set.of(), listedNames(RelativePath.ROOT), "a sink over an empty store lists nothing, not even its own bookkeeping");
        Entry root = sink().stat(RelativePath.ROOT).orElseThrow(() -> new AssertionError("stat(ROOT) is empty"));
        assertEquals(EntryType.DIRECTORY, root.type());
    }

    @Test
    default void listsAnEmptyDirectory() {
        assertTrue(sink().mkdirs(path("empty")));
        assertEquals(Set.of(), listedNames(path("empty")));
        assertEquals(Set.of("empty"), listedNames(RelativePath.ROOT));
        assertEquals(EntryType.DIRECTORY, sink().stat(path("empty")).orElseThrow().type());
    }

    @Test
    default void listsNestedDirectoriesOneLevelAtATime() {
        sink().mkdirs(path("a/b/c"));
        commitFile("a/one.txt", "one");
        commitFile("a/b/two.txt", "two!");
        assertEquals(Set.of("a"), listedNames(RelativePath.ROOT));
        assertEquals(Set.of("b", "one.txt"), listedNames(path("a")));
        assertEquals(Set.of("c", "two.txt"), listedNames(path("a/b")));
        try (var entries = sink().list(path("a/b"))) {
            for (Entry entry : entries.toList()) {
                if (entry.path().name().equals("two.txt")) {
                    assertEquals(EntryType.FILE, entry.type());
                    assertEquals(4, entry.size());
                }
                else {
                    assertEquals(EntryType.DIRECTORY, entry.type());
                }
            }
        }
    }

    @Test
    default void listingAMissingDirectoryIsNotFound() {
        assertError(ErrorCode.NOT_FOUND, () -> sink().list(path("missing")).close());
    }

    @Test
    default void listingAFileIsNotADirectory() {
        commitFile("file", "x");
        assertError(ErrorCode.NOT_A_DIRECTORY, () -> sink().list(path("file")).close());
    }

    /** The optional {@link FreeSpace} ability: skipped for sinks without it. */
    @Test
    default void aSinkThatTellsItsFreeSpaceTellsItForFoldersNotCreatedYet() {
        assumeTrue(sink() instanceof FreeSpace, "the sink does not tell its free space (FreeSpace is optional)");
        FreeSpace space = (FreeSpace) sink();
        OptionalLong root = space.usableSpace(RelativePath.ROOT);
        root.ifPresent(bytes -> assertTrue(bytes >= 0, "free space cannot be negative, got " + bytes));
        assertEquals(root.isPresent(), space.usableSpace(path("missing/below")).isPresent(),
                "a folder not created yet counts as its nearest existing folder");
    }

    @Test
    default void statOfAMissingPathIsEmpty() {
        assertTrue(sink().stat(path("missing")).isEmpty());
        assertTrue(sink().stat(path("missing/below")).isEmpty(), "stat below a missing directory is empty, not an error");
    }

    @Test
    default void mkdirsCreatesParentsAndIsIdempotent() {
        assertTrue(sink().mkdirs(path("x/y/z")), "the first mkdirs creates");
        assertFalse(sink().mkdirs(path("x/y/z")), "the second mkdirs finds it");
        assertFalse(sink().mkdirs(path("x/y")), "a parent created on the way exists");
        assertFalse(sink().mkdirs(RelativePath.ROOT), "the root exists");
        assertEquals(Set.of("z"), listedNames(path("x/y")));
    }

    @Test
    default void mkdirsThroughAFileIsNotADirectory() {
        commitFile("file", "x");
        assertError(ErrorCode.NOT_A_DIRECTORY, () -> sink().mkdirs(path("file")));
        assertError(ErrorCode.NOT_A_DIRECTORY, () -> sink().mkdirs(path("file/below")));
        assertEquals("x", new String(readBack(path("file")).orElseThrow(), StandardCharsets.UTF_8), "the file in the way is untouched");
    }

    @Test
    default void deletesAFile() {
        commitFile("gone.txt", "bye");
        sink().delete(path("gone.txt"), false);
        assertTrue(sink().stat(path("gone.txt")).isEmpty());
        assertTrue(readBack(path("gone.txt")).isEmpty());
    }

    @Test
    default void deletesAnEmptyDirectory() {
        sink().mkdirs(path("d/e"));
        sink().delete(path("d/e"), false);
        assertEquals(Set.of(), listedNames(path("d")));
    }

    @Test
    default void deletesATreeRecursively() {
        sink().mkdirs(path("tree/sub/deeper"));
        commitFile("tree/sub/f1", "1");
        commitFile("tree/f2", "22");
        sink().delete(path("tree"), true);
        assertTrue(sink().stat(path("tree")).isEmpty());
        assertEquals(Set.of(), listedNames(RelativePath.ROOT));
        assertTrue(storedNames().stream().noneMatch(name -> name.equals("tree") || name.startsWith("tree/")),
                "nothing of the tree is left in the store: " + storedNames());
    }

    @Test
    default void deletingWhatDoesNotExistIsNotAnError() {
        sink().delete(path("never"), false);
        sink().delete(path("never"), true);
        sink().delete(path("never/below"), true);
    }

    /**
     * The SPI does not name the code; the kit asks for a {@link ErrorCategory#USER} error (the local
     * sink reports {@link ErrorCode#ALREADY_EXISTS}) and that nothing is removed.
     */
    @Test
    default void deletingANonEmptyDirectoryWithoutRecursiveFailsAndKeepsIt() {
        sink().mkdirs(path("full"));
        commitFile("full/f", "keep me");
        MoverException thrown = assertThrows(MoverException.class, () -> sink().delete(path("full"), false));
        assertEquals(ErrorCategory.USER, thrown.category(), "category of " + thrown.code() + ": " + thrown.getMessage());
        assertStored(path("full/f"), "keep me".getBytes(StandardCharsets.UTF_8));
    }

    /** Not in the SPI javadoc; the kit asks every sink to refuse it, as a guard against a wrong sync. */
    @Test
    default void deletingTheRootIsRefused() {
        commitFile("precious", "data");
        assertError(ErrorCode.INVALID_PATH, () -> sink().delete(RelativePath.ROOT, true));
        assertStored(path("precious"), "data".getBytes(StandardCharsets.UTF_8));
    }

    /** "Its parent exists" is the caller's promise; a sink that finds it broken says NOT_FOUND, at create or at commit. */
    @Test
    default void creatingInAMissingDirectoryIsNotFound() {
        Set<String> before = storedNames();
        RelativePath orphan = path("no-such-dir/file");
        MoverException thrown = assertThrows(MoverException.class, () -> {
            var writer = sink().create(orphan, 1, fileEntry(orphan, 1));
            try {
                writer.write(0, java.nio.ByteBuffer.wrap(new byte[] {1}));
                writer.commit();
            }
            finally {
                writer.abort();
            }
        });
        assertEquals(ErrorCode.NOT_FOUND, thrown.code(), thrown.getMessage());
        assertEquals(before, storedNames(), "a failed create leaves nothing");
    }

    @Test
    default void creatingBelowAFileIsNotADirectory() {
        commitFile("plain", "x");
        RelativePath below = path("plain/child");
        assertError(ErrorCode.NOT_A_DIRECTORY, () -> {
            var writer = sink().create(below, 0, fileEntry(below, 0));
            try {
                writer.commit();
            }
            finally {
                writer.abort();
            }
        });
    }

    @Test
    default void creatingAtTheRootIsInvalidPath() {
        assertError(ErrorCode.INVALID_PATH, () -> sink().create(RelativePath.ROOT, 0, fileEntry(RelativePath.ROOT, 0)).abort());
    }

    /** The SPI says "replaced atomically" for files only; a directory in the way is refused with ALREADY_EXISTS and kept. */
    @Test
    default void aFileIsNotCommittedOverADirectory() {
        sink().mkdirs(path("taken/inner"));
        RelativePath taken = path("taken");
        assertError(ErrorCode.ALREADY_EXISTS, () -> {
            var writer = sink().create(taken, 1, fileEntry(taken, 1));
            try {
                writer.write(0, java.nio.ByteBuffer.wrap(new byte[] {7}));
                writer.commit();
            }
            finally {
                writer.abort();
            }
        });
        assertEquals(EntryType.DIRECTORY, sink().stat(taken).orElseThrow().type());
        assertEquals(Set.of("inner"), listedNames(taken));
    }
}
