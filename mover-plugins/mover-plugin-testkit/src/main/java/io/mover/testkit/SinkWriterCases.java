package io.mover.testkit;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.mover.spi.Entry;
import io.mover.spi.EntryType;
import io.mover.spi.ErrorCode;
import io.mover.spi.RelativePath;
import io.mover.spi.SinkWriter;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link SinkWriter}: positional writes, commit, abort, what is visible when, buffer ownership. */
public interface SinkWriterCases extends SinkFixture {
    int BLOCK = 64 * 1024;

    @Test
    default void writesInOrderAndCommits() {
        byte[] bytes = content(3 * BLOCK + 123, 1);
        RelativePath file = path("in-order.bin");
        SinkWriter writer = sink().create(file, bytes.length, fileEntry(file, bytes.length));
        for (int offset = 0; offset < bytes.length; offset += BLOCK) {
            writer.write(offset, ByteBuffer.wrap(bytes, offset, Math.min(BLOCK, bytes.length - offset)));
        }
        Entry committed = writer.commit();
        assertStored(file, bytes);
        Entry listed = sink().stat(file).orElseThrow();
        assertEquals(file, committed.path(), "commit returns the entry at the final path");
        assertEquals(EntryType.FILE, committed.type());
        assertEquals(listed.size(), committed.size(), "commit returns the entry as the sink now lists it");
        assertEquals(listed.lastModified(), committed.lastModified(), "commit returns the entry as the sink now lists it");
    }

    @Test
    default void writesOutOfOrder() {
        byte[] bytes = content(4 * BLOCK + 7, 2);
        RelativePath file = path("out-of-order.bin");
        SinkWriter writer = sink().create(file, bytes.length, fileEntry(file, bytes.length));
        int[] order = {4, 1, 3, 0, 2};
        for (int block : order) {
            int offset = block * BLOCK;
            writer.write(offset, ByteBuffer.wrap(bytes, offset, Math.min(BLOCK, bytes.length - offset)));
        }
        writer.commit();
        assertStored(file, bytes);
    }

    @Test
    default void takesWritesFromSeveralThreadsAtOnce() throws Exception {
        int blocks = 32;
        byte[] bytes = content(blocks * 16 * 1024, 3);
        RelativePath file = path("concurrent.bin");
        SinkWriter writer = sink().create(file, bytes.length, fileEntry(file, bytes.length));
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> writes = new ArrayList<>();
            for (int block = blocks - 1; block >= 0; block--) {
                int offset = block * 16 * 1024;
                writes.add(pool.submit(() -> writer.write(offset, ByteBuffer.wrap(bytes, offset, 16 * 1024))));
            }
            for (Future<?> write : writes) {
                write.get(30, TimeUnit.SECONDS);
            }
        }
        finally {
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS), "writes did not end");
        }
        writer.commit();
        assertStored(file, bytes);
    }

    @Test
    default void anEmptyFileCommits() {
        RelativePath file = path("empty.txt");
        sink().create(file, 0, fileEntry(file, 0)).commit();
        assertStored(file, new byte[0]);
    }

    /** The caller owns the buffer: it is consumed to its limit, and changing it after write returns changes nothing. */
    @Test
    default void consumesTheCallersBufferAndKeepsNoReferenceToIt() {
        byte[] bytes = content(10_000, 4);
        RelativePath file = path("buffers.bin");
        SinkWriter writer = sink().create(file, bytes.length, fileEntry(file, bytes.length));
        ByteBuffer direct = ByteBuffer.allocateDirect(6_000);
        direct.put(bytes, 0, 6_000).flip();
        writer.write(0, direct);
        assertFalse(direct.hasRemaining(), "a direct buffer is consumed from position to limit");
        ByteBuffer sliced = ByteBuffer.allocate(5_000);
        sliced.position(500);
        sliced.put(bytes, 6_000, 4_000).flip().position(500);
        writer.write(6_000, sliced.slice());
        direct.clear();
        while (direct.hasRemaining()) {
            direct.put((byte) 0x5a);
        }
        java.util.Arrays.fill(sliced.array(), (byte) 0x5a);
        writer.commit();
        assertStored(file, bytes);
    }

    @Test
    default void nothingIsVisibleBeforeCommit() {
        sink().mkdirs(path("dir"));
        Set<String> before = storedNames();
        RelativePath file = path("dir/pending.bin");
        byte[] bytes = content(BLOCK, 5);
        SinkWriter writer = sink().create(file, bytes.length, fileEntry(file, bytes.length));
        writer.write(0, ByteBuffer.wrap(bytes));
        assertTrue(sink().stat(file).isEmpty(), "stat sees the file before commit");
        assertEquals(Set.of(), listedNames(path("dir")), "list shows the file or a temporary before commit");
        assertTrue(readBack(file).isEmpty(), "the final name holds data before commit");
        assertFalse(storedNames().contains("dir/pending.bin"), "the final name exists in the store before commit");
        assertNothingNewBut(before, "before commit");
        writer.commit();
        assertStored(file, bytes);
        assertEquals(Set.of("pending.bin"), listedNames(path("dir")), "no temporary is left beside the committed file");
    }

    @Test
    default void abortLeavesNothing() {
        sink().mkdirs(path("dir"));
        Set<String> before = storedNames();
        RelativePath file = path("dir/aborted.bin");
        SinkWriter writer = sink().create(file, BLOCK, fileEntry(file, BLOCK));
        writer.write(0, ByteBuffer.wrap(content(BLOCK, 6)));
        writer.abort();
        assertTrue(sink().stat(file).isEmpty());
        assertEquals(before, storedNames(), "abort removes every trace, temporaries included");
    }

    @Test
    default void abortIsIdempotentAndIsANoOpAfterCommit() {
        RelativePath aborted = path("twice-aborted");
        SinkWriter first = sink().create(aborted, 0, fileEntry(aborted, 0));
        first.abort();
        first.abort();
        byte[] bytes = content(100, 7);
        RelativePath kept = path("committed-then-aborted");
        SinkWriter second = sink().create(kept, bytes.length, fileEntry(kept, bytes.length));
        second.write(0, ByteBuffer.wrap(bytes));
        second.commit();
        second.abort();
        assertStored(kept, bytes);
    }

    /**
     * Calling commit in the wrong state is a bug in the caller, not an I/O failure: the kit asks for
     * {@link IllegalStateException}, and that the state of the store does not change.
     */
    @Test
    default void commitAfterAbortIsRefused() {
        Set<String> before = storedNames();
        RelativePath file = path("abort-then-commit");
        SinkWriter writer = sink().create(file, 3, fileEntry(file, 3));
        writer.write(0, ByteBuffer.wrap(new byte[] {1, 2, 3}));
        writer.abort();
        assertThrows(IllegalStateException.class, writer::commit);
        assertTrue(sink().stat(file).isEmpty());
        assertEquals(before, storedNames());
    }

    @Test
    default void aSecondCommitIsRefused() {
        byte[] bytes = content(10, 8);
        RelativePath file = path("double-commit");
        SinkWriter writer = sink().create(file, bytes.length, fileEntry(file, bytes.length));
        writer.write(0, ByteBuffer.wrap(bytes));
        writer.commit();
        assertThrows(IllegalStateException.class, writer::commit);
        assertStored(file, bytes);
    }

    /** "abort must make that write fail promptly": a write after abort fails with CANCELLED. */
    @Test
    default void aWriteAfterAbortIsCancelled() {
        RelativePath file = path("write-after-abort");
        SinkWriter writer = sink().create(file, 10, fileEntry(file, 10));
        writer.abort();
        assertError(ErrorCode.CANCELLED, () -> writer.write(0, ByteBuffer.wrap(new byte[10])));
        assertTrue(sink().stat(file).isEmpty());
    }

    @Test
    default void overwritesAnExistingFileAtomically() {
        byte[] old = "the old content, longer than the new".getBytes(StandardCharsets.UTF_8);
        byte[] fresh = "new".getBytes(StandardCharsets.UTF_8);
        RelativePath file = path("replaced.txt");
        commitFile(file, old);
        SinkWriter writer = sink().create(file, fresh.length, fileEntry(file, fresh.length));
        writer.write(0, ByteBuffer.wrap(fresh));
        assertStored(file, old);
        writer.commit();
        assertStored(file, fresh);
        assertEquals(Set.of("replaced.txt"), listedNames(RelativePath.ROOT));
    }

    @Test
    default void anAbortedOverwriteKeepsTheOldFile() {
        byte[] old = content(1000, 9);
        RelativePath file = path("kept.bin");
        commitFile(file, old);
        SinkWriter writer = sink().create(file, 5, fileEntry(file, 5));
        writer.write(0, ByteBuffer.wrap(new byte[5]));
        writer.abort();
        assertStored(file, old);
    }

    @Test
    default void severalWritersInOneDirectoryCommitIndependently() {
        sink().mkdirs(path("many"));
        List<SinkWriter> writers = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            RelativePath file = path("many/f" + i);
            SinkWriter writer = sink().create(file, 100, fileEntry(file, 100));
            writer.write(0, ByteBuffer.wrap(content(100, i)));
            writers.add(writer);
        }
        writers.get(2).abort();
        for (int i = 4; i >= 0; i--) {
            if (i != 2) {
                writers.get(i).commit();
            }
        }
        assertEquals(Set.of("f0", "f1", "f3", "f4"), listedNames(path("many")));
        for (int i : new int[] {0, 1, 3, 4}) {
            assertArrayEquals(content(100, i), readBack(path("many/f" + i)).orElseThrow());
        }
    }
}
