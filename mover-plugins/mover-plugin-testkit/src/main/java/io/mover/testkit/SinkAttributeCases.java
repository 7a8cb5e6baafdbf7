package io.mover.testkit;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.stream.Stream;

import io.mover.spi.Attributes;
import io.mover.spi.Entry;
import io.mover.spi.EntryType;
import io.mover.spi.ErrorCode;
import io.mover.spi.RelativePath;
import io.mover.spi.Sink;
import io.mover.spi.SinkWriter;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Attributes, names, and the clean-up of what a crashed run left behind. */
public interface SinkAttributeCases extends SinkFixture {
    int BLOCK_FOR_CRASH = 4096;

    @Test
    default void commitAppliesTheModificationTime() {
        assumeTrue(sink().info().preservesModificationTime(), "the sink does not keep modification times");
        Instant mtime = Instant.parse("2019-11-12T13:14:16Z");
        RelativePath file = path("dated.txt");
        SinkWriter writer = sink().create(file, 2, new Entry(file, EntryType.FILE, 2, mtime, Attributes.NONE));
        writer.write(0, ByteBuffer.wrap(new byte[] {1, 2}));
        Entry committed = writer.commit();
        assertMtime(mtime, committed.lastModified(), "mtime commit returns");
        assertMtime(mtime, sink().stat(file).orElseThrow().lastModified(), "mtime stat reports");
    }

    @Test
    default void commitAppliesThePosixMode() {
        assumeTrue(sink().info().preservesPosixMode(), "the sink does not keep POSIX modes");
        RelativePath file = path("mode.sh");
        Entry source = new Entry(file, EntryType.FILE, 1, MTIME, Attributes.ofMode(0750));
        SinkWriter writer = sink().create(file, 1, source);
        writer.write(0, ByteBuffer.wrap(new byte[] {'#'}));
        writer.commit();
        assertEquals(OptionalInt.of(0750), sink().stat(file).orElseThrow().attributes().posixMode());
    }

    @Test
    default void setAttributesChangesAFile() {
        assumeTrue(sink().info().preservesModificationTime(), "the sink does not keep modification times");
        RelativePath file = path("later.txt");
        commitFile(file, "x".getBytes(StandardCharsets.UTF_8));
        Instant mtime = Instant.parse("2001-02-03T04:05:06Z");
        boolean mode = sink().info().preservesPosixMode();
        Attributes attributes = mode ? Attributes.ofMode(0604) : Attributes.NONE;
        sink().setAttributes(file, new Entry(file, EntryType.FILE, 1, mtime, attributes));
        Entry entry = sink().stat(file).orElseThrow();
        assertMtime(mtime, entry.lastModified(), "mtime after setAttributes");
        if (mode) {
            assertEquals(OptionalInt.of(0604), entry.attributes().posixMode());
        }
    }

    /** The engine sets a directory's time after its contents are written, so it must stick. */
    @Test
    default void setAttributesChangesADirectory() {
        assumeTrue(sink().info().preservesModificationTime(), "the sink does not keep modification times");
        sink().mkdirs(path("dated-dir"));
        commitFile("dated-dir/inside", "i");
        Instant mtime = Instant.parse("2002-03-04T05:06:08Z");
        sink().setAttributes(path("dated-dir"), Entry.directory(path("dated-dir"), mtime));
        assertMtime(mtime, sink().stat(path("dated-dir")).orElseThrow().lastModified(), "directory mtime");
    }

    @Test
    default void setAttributesOfAMissingPathIsNotFound() {
        assertError(ErrorCode.NOT_FOUND, () -> sink().setAttributes(path("missing"), Entry.file(path("missing"), 0, MTIME)));
    }

    /** Names every mover endpoint must carry as they are: {@link RelativePath} allows them. */
    @TestFactory
    default Stream<DynamicTest> oddButLegalNamesRoundTrip() {
        Map<String, String> names = Map.of(
                "spaces", "a name with  spaces .txt",
                "unicode", "Grüße-日本語-emoji-\uD83D\uDE00.txt",
                "punctuation", "#hash%percent&amp;'quote' (1) [2] {3} ~tilde @at+plus=eq,comma;semi!",
                "leading dash and dot", "-dash and .dot",
                "255 ascii bytes", "n".repeat(251) + ".txt",
                "255 utf-8 bytes", "é".repeat(127) + "x");
        return names.entrySet().stream().sorted(Map.Entry.comparingByKey()).map(named -> DynamicTest.dynamicTest(named.getKey(), () -> {
            assumeFalse(reservedNames().contains(named.getValue()));
            RelativePath dir = path("odd-" + named.getKey().replace(' ', '-'));
            sink().mkdirs(dir);
            RelativePath subdir = dir.resolve(named.getValue());
            assertTrue(sink().mkdirs(subdir), "mkdirs " + subdir);
            RelativePath file = subdir.resolve(named.getValue());
            byte[] bytes = named.getValue().getBytes(StandardCharsets.UTF_8);
            commitFile(file, bytes);
            assertStored(file, bytes);
            assertEquals(Set.of(named.getValue()), listedNames(dir));
            assertEquals(Set.of(named.getValue()), listedNames(subdir));
        }));
    }

    @Test
    default void reservedNamesAreInvalidPaths() {
        List<String> reserved = reservedNames();
        assumeTrue(!reserved.isEmpty(), "the sink reserves no names");
        for (String name : reserved) {
            RelativePath reservedPath = path(name);
            assertError(ErrorCode.INVALID_PATH, () -> sink().mkdirs(reservedPath));
            assertError(ErrorCode.INVALID_PATH, () -> sink().create(reservedPath, 0, fileEntry(reservedPath, 0)).abort());
        }
    }

    /** A writer still open in this sink is never a stale temporary, whatever its age. */
    @Test
    default void removeStaleTemporariesKeepsOpenWriters() {
        sink().mkdirs(path("busy"));
        RelativePath file = path("busy/open.bin");
        byte[] bytes = content(5000, 10);
        SinkWriter writer = sink().create(file, bytes.length, fileEntry(file, bytes.length));
        writer.write(0, ByteBuffer.wrap(bytes, 0, 2000));
        assertEquals(0, sink().removeStaleTemporaries(path("busy")), "an open writer's temporary was removed");
        writer.write(2000, ByteBuffer.wrap(bytes, 2000, 3000));
        writer.commit();
        assertStored(file, bytes);
    }

    /**
     * A run that dies leaves its temporaries; the next run of the same job removes them, another job
     * never does. (A sink with no temporaries passes trivially.)
     */
    @Test
    default void removeStaleTemporariesRemovesOnlyThisJobsLeftovers() {
        sink().mkdirs(path("crash"));
        Set<String> before = storedNames();
        Sink crashed = reopen(context().withJobKey("crashed-job"));
        RelativePath file = path("crash/partial.bin");
        SinkWriter abandoned = crashed.create(file, BLOCK_FOR_CRASH, fileEntry(file, BLOCK_FOR_CRASH));
        abandoned.write(0, ByteBuffer.wrap(content(BLOCK_FOR_CRASH, 11)));
        Set<String> left = new HashSet<>(storedNames());
        left.removeAll(before);
        assertNothingNewBut(before, "an uncommitted write");

        Sink otherJob = reopen(context().withJobKey("other-job"));
        assertEquals(0, otherJob.removeStaleTemporaries(path("crash")), "another job removed temporaries it does not own");
        assertTrue(storedNames().containsAll(left), "another job removed temporaries it does not own");

        Sink nextRun = reopen(context().withJobKey("crashed-job"));
        assertEquals(left.size(), nextRun.removeStaleTemporaries(path("crash")), "count of stale temporaries removed");
        assertEquals(before, storedNames(), "the next run of the job removes what the crashed run left");
        assertEquals(Optional.empty(), nextRun.stat(file));
        abandoned.abort();
    }
}
