package io.mover.testkit;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

import io.mover.spi.Attributes;
import io.mover.spi.Entry;
import io.mover.spi.EntryType;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.RelativePath;
import io.mover.spi.Sink;
import io.mover.spi.SinkWriter;

import org.junit.jupiter.api.function.Executable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The hooks a plugin author implements (through {@link SinkContractTest}) and the helpers the contract
 * cases share. The hooks look at the store directly, past the sink, so that the cases can check what
 * is physically there, not only what the sink chooses to report.
 */
public interface SinkFixture {
    /** A modification time every store can keep exactly: whole, even seconds (FAT keeps 2 s). */
    Instant MTIME = Instant.parse("2021-03-04T05:06:08Z");

    /**
     * Creates a sink over the store for {@code context}. Called once before each case and again when a
     * case needs a second sink over the same store (a later run of the job, another job): every call
     * with the same {@link ContractContext#directory()} must see the same store.
     */
    Sink createSink(ContractContext context);

    /** The bytes stored under {@code path}'s final name, read past the sink; empty if nothing is there. */
    Optional<byte[]> readBack(RelativePath path);

    /**
     * Everything physically in the store, files and directories, as {@code a/b/c} paths relative to the
     * sink's root, including temporaries and any bookkeeping the sink keeps.
     */
    Set<String> storedNames();

    /** The sink under test, created for the current case. */
    Sink sink();

    /** The context the current sink was created with. */
    ContractContext context();

    /** Another sink over the same store for {@code context} (another job, a later run); closed after the case. */
    Sink reopen(ContractContext context);

    /** Whether a stored name (as {@link #storedNames()} gives it) is one of the sink's temporaries. */
    default boolean isTemporaryName(String storedName) {
        return false;
    }

    /** Names the sink reserves for itself and refuses with {@link ErrorCode#INVALID_PATH}; none by default. */
    default List<String> reservedNames() {
        return List.of();
    }

    default RelativePath path(String text) {
        return RelativePath.of(text);
    }

    default Entry fileEntry(RelativePath path, long size) {
        return new Entry(path, EntryType.FILE, size, MTIME, Attributes.NONE);
    }

    /** Content that differs per seed and position, so a misplaced block is caught. */
    default byte[] content(int size, int seed) {
        byte[] bytes = new byte[size];
        for (int i = 0; i < size; i++) {
            bytes[i] = (byte) ((i * 31 + seed * 17 + (i >>> 8)) & 0xff);
        }
        return bytes;
    }

    /** Creates, writes in one call, and commits a file; its parent must exist. */
    default Entry commitFile(RelativePath path, byte[] bytes) {
        SinkWriter writer = sink().create(path, bytes.length, fileEntry(path, bytes.length));
        try {
            writer.write(0, ByteBuffer.wrap(bytes));
            return writer.commit();
        }
        catch (RuntimeException e) {
            writer.abort();
            throw e;
        }
    }

    default Entry commitFile(String path, String text) {
        return commitFile(path(path), text.getBytes(StandardCharsets.UTF_8));
    }

    default void assertStored(RelativePath path, byte[] expected) {
        Optional<byte[]> stored = readBack(path);
        assertTrue(stored.isPresent(), path + " is not in the store");
        assertEquals(expected.length, stored.get().length, "stored size of " + path);
        assertArrayEquals(expected, stored.get(), "stored bytes of " + path);
        Entry entry = sink().stat(path).orElseThrow(() -> new AssertionError("stat(" + path + ") is empty after commit"));
        assertEquals(EntryType.FILE, entry.type(), "type of " + path);
        assertEquals(expected.length, entry.size(), "size stat reports for " + path);
    }

    /** Names directly inside {@code directory}, as the sink lists them. */
    default Set<String> listedNames(RelativePath directory) {
        try (Stream<Entry> entries = sink().list(directory)) {
            Set<String> names = new HashSet<>();
            entries.forEach(entry -> {
                assertEquals(directory, entry.path().parent(), "listed entry " + entry.path() + " is not directly inside " + directory);
                assertTrue(names.add(entry.path().name()), "listed twice: " + entry.path());
            });
            return names;
        }
    }

    default void assertNothingNewBut(Set<String> before, String why) {
        Set<String> added = new HashSet<>(storedNames());
        added.removeAll(before);
        for (String name : added) {
            if (!isTemporaryName(name)) {
                fail(why + ": '" + name + "' appeared in the store and is not one of the sink's temporaries");
            }
        }
    }

    default void assertMtime(Instant expected, Instant actual, String what) {
        Duration precision = sink().info().mtimePrecision();
        Duration off = Duration.between(expected, actual).abs();
        assertTrue(off.compareTo(precision) <= 0, what + ": expected " + expected + " within " + precision + ", got " + actual);
    }

    default MoverException assertError(ErrorCode expected, Executable call) {
        MoverException thrown = assertThrows(MoverException.class, call);
        assertEquals(expected, thrown.code(), "error code; message was: " + thrown.getMessage());
        return thrown;
    }

    default byte[] concat(byte[]... parts) {
        int size = Arrays.stream(parts).mapToInt(part -> part.length).sum();
        ByteBuffer all = ByteBuffer.allocate(size);
        for (byte[] part : parts) {
            all.put(part);
        }
        return all.array();
    }
}
