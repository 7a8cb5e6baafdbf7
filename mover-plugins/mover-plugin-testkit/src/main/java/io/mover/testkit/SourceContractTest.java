package io.mover.testkit;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.mover.spi.Entry;
import io.mover.spi.EntryType;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.PluginContext;
import io.mover.spi.RelativePath;
import io.mover.spi.Source;
import io.mover.spi.SourceReader;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The source contract, as JUnit 5 cases a plugin author runs against their own {@link Source}: extend
 * this class and implement {@link #createFile}, {@link #createDirectory} (which put the fixture tree in
 * the store, past the source) and {@link #createSource}. Before each case the kit writes this tree
 * and then creates the source over it:
 * <pre>
 * small.txt            "hello, mover"
 * empty                0 bytes
 * big.bin              1 MiB + 17 bytes of patterned content
 * dir/                 a directory
 * dir/nested/inner.txt "inner"
 * dir/hollow/          an empty directory
 * odd names/Grüße 日本.txt
 * </pre>
 * Every file gets the modification time {@link SinkFixture#MTIME}.
 */
@Timeout(60)
public abstract class SourceContractTest {
    private static final int BIG = (1 << 20) + 17;
    private static final String ODD = "Grüße 日本.txt";

    @TempDir
    private Path temporary;
    private Source source;
    private final Map<RelativePath, byte[]> files = new HashMap<>();

    /** Puts a file into the store under test, past the source, with {@code lastModified} as its modification time. */
    protected abstract void createFile(ContractContext context, RelativePath path, byte[] content, Instant lastModified);

    /** Creates a directory (and its parents) in the store under test. */
    protected abstract void createDirectory(ContractContext context, RelativePath path);

    /** The source under test, over the store the two methods above filled. */
    protected abstract Source createSource(ContractContext context);

    protected final Source source() {
        return source;
    }

    @BeforeEach
    final void createFixtureAndSource() throws IOException {
        Path store = Files.createDirectories(temporary.resolve("store"));
        Path scratch = Files.createDirectories(temporary.resolve("scratch"));
        ContractContext context = new ContractContext(store,
                new PluginContext(SinkContractTest.JOB_KEY, scratch, Clock.systemUTC(), System.getLogger("mover.testkit")));
        files.put(RelativePath.of("small.txt"), "hello, mover".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        files.put(RelativePath.of("empty"), new byte[0]);
        byte[] big = new byte[BIG];
        new Random(42).nextBytes(big);
        files.put(RelativePath.of("big.bin"), big);
        files.put(RelativePath.of("dir/nested/inner.txt"), "inner".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        files.put(RelativePath.of("odd names/" + ODD), ODD.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        for (String directory : List.of("dir/nested", "dir/hollow", "odd names")) {
            createDirectory(context, RelativePath.of(directory));
        }
        files.forEach((path, bytes) -> createFile(context, path, bytes, SinkFixture.MTIME));
        source = createSource(context);
    }

    @AfterEach
    final void closeSource() {
        source.close();
    }

    private Map<String, Entry> list(String directory) {
        try (Stream<Entry> entries = source.list(RelativePath.of(directory))) {
            Map<String, Entry> byName = new HashMap<>();
            entries.forEach(entry -> {
                assertEquals(RelativePath.of(directory), entry.path().parent(), "not directly inside " + directory + ": " + entry.path());
                assertEquals(null, byName.put(entry.path().name(), entry), "listed twice: " + entry.path());
            });
            return byName;
        }
    }

    private byte[] readAll(RelativePath path, int chunk) {
        try (SourceReader reader = source.open(path)) {
            ByteBuffer all = ByteBuffer.allocate((int) reader.size());
            ByteBuffer buffer = ByteBuffer.allocate(chunk);
            long position = 0;
            for (int calls = 0; calls < 100_000; calls++) {
                buffer.clear();
                int read = reader.read(position, buffer);
                if (read == 0) {
                    break;
                }
                assertEquals(read, buffer.position(), "read advances the buffer's position by what it returns");
                all.put(buffer.flip());
                position += read;
            }
            assertEquals(all.capacity(), position, "bytes read of " + path);
            return all.array();
        }
    }

    @Test
    void theRootIsADirectory() {
        assertEquals(EntryType.DIRECTORY, source.stat(RelativePath.ROOT).orElseThrow().type());
    }

    @Test
    void listsTheRootCompletely() {
        Map<String, Entry> root = list("");
        assertEquals(java.util.Set.of("small.txt", "empty", "big.bin", "dir", "odd names"), root.keySet());
        assertEquals(EntryType.FILE, root.get("small.txt").type());
        assertEquals(12, root.get("small.txt").size());
        assertEquals(0, root.get("empty").size());
        assertEquals(BIG, root.get("big.bin").size());
        assertEquals(EntryType.DIRECTORY, root.get("dir").type());
        assertMtime(root.get("big.bin").lastModified());
    }

    @Test
    void listsNestedAndEmptyDirectories() {
        assertEquals(java.util.Set.of("nested", "hollow"), list("dir").keySet());
        assertEquals(java.util.Set.of("inner.txt"), list("dir/nested").keySet());
        assertEquals(java.util.Set.of(), list("dir/hollow").keySet());
        assertEquals(java.util.Set.of(ODD), list("odd names").keySet());
    }

    @Test
    void listingAMissingDirectoryIsNotFound() {
        MoverException thrown = assertThrows(MoverException.class, () -> source.list(RelativePath.of("missing")).close());
        assertEquals(ErrorCode.NOT_FOUND, thrown.code(), thrown.getMessage());
    }

    @Test
    void listingAFileIsNotADirectory() {
        MoverException thrown = assertThrows(MoverException.class, () -> source.list(RelativePath.of("small.txt")).close());
        assertEquals(ErrorCode.NOT_A_DIRECTORY, thrown.code(), thrown.getMessage());
    }

    @Test
    void statsFilesAndDirectories() {
        Entry small = source.stat(RelativePath.of("small.txt")).orElseThrow();
        assertEquals(EntryType.FILE, small.type());
        assertEquals(12, small.size());
        assertEquals(RelativePath.of("small.txt"), small.path());
        assertMtime(small.lastModified());
        assertEquals(EntryType.DIRECTORY, source.stat(RelativePath.of("dir/hollow")).orElseThrow().type());
        assertEquals(list("").get("small.txt").size(), small.size(), "stat and list agree");
    }

    @Test
    void statOfAMissingPathIsEmpty() {
        assertTrue(source.stat(RelativePath.of("missing")).isEmpty());
        assertTrue(source.stat(RelativePath.of("missing/below")).isEmpty());
    }

    @Test
    void readsEveryFileWhole() {
        files.forEach((path, bytes) -> assertArrayEquals(bytes, readAll(path, 64 * 1024), "content of " + path));
        assertArrayEquals(files.get(RelativePath.of("big.bin")), readAll(RelativePath.of("big.bin"), 1000), "odd chunk size");
    }

    @Test
    void readsAtArbitraryOffsets() {
        byte[] big = files.get(RelativePath.of("big.bin"));
        Random random = new Random(7);
        try (SourceReader reader = source.open(RelativePath.of("big.bin"))) {
            assertEquals(BIG, reader.size());
            for (int i = 0; i < 200; i++) {
                int position = random.nextInt(BIG);
                ByteBuffer buffer = random.nextBoolean() ? ByteBuffer.allocate(1 + random.nextInt(9000)) : ByteBuffer.allocateDirect(1 + random.nextInt(9000));
                int read = reader.read(position, buffer);
                int expected = Math.min(buffer.capacity(), BIG - position);
                assertEquals(expected, read, "bytes read at " + position + " into " + buffer.capacity());
                byte[] got = new byte[read];
                buffer.flip().get(got);
                assertArrayEquals(java.util.Arrays.copyOfRange(big, position, position + read), got, "bytes at " + position);
            }
        }
    }

    @Test
    void readingAtOrPastTheEndGivesZero() {
        try (SourceReader reader = source.open(RelativePath.of("small.txt"))) {
            assertEquals(0, reader.read(12, ByteBuffer.allocate(10)), "at the end");
            assertEquals(0, reader.read(1000, ByteBuffer.allocate(10)), "past the end");
            ByteBuffer straddling = ByteBuffer.allocate(10);
            assertEquals(2, reader.read(10, straddling), "a read over the end returns what there is");
            assertEquals(0, reader.read(0, ByteBuffer.allocate(0)), "no room, nothing read");
        }
        try (SourceReader reader = source.open(RelativePath.of("empty"))) {
            assertEquals(0, reader.size());
            assertEquals(0, reader.read(0, ByteBuffer.allocate(10)));
        }
    }

    @Test
    void readsConcurrentlyThroughOneReader() throws Exception {
        byte[] big = files.get(RelativePath.of("big.bin"));
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try (SourceReader reader = source.open(RelativePath.of("big.bin"))) {
            List<Future<Boolean>> reads = new ArrayList<>();
            for (int block = 0; block * 65536 < BIG; block++) {
                int position = block * 65536;
                reads.add(pool.submit(() -> {
                    ByteBuffer buffer = ByteBuffer.allocate(65536);
                    int read = reader.read(position, buffer);
                    return java.util.Arrays.equals(java.util.Arrays.copyOf(buffer.array(), read),
                            java.util.Arrays.copyOfRange(big, position, Math.min(BIG, position + 65536)));
                }));
            }
            for (Future<Boolean> read : reads) {
                assertTrue(read.get(30, TimeUnit.SECONDS), "a concurrent read returned the wrong bytes");
            }
        }
        finally {
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void openingAMissingFileIsNotFound() {
        MoverException thrown = assertThrows(MoverException.class, () -> source.open(RelativePath.of("missing.txt")).close());
        assertEquals(ErrorCode.NOT_FOUND, thrown.code(), thrown.getMessage());
    }

    @Test
    void closingTwiceIsHarmless() {
        source.close();
    }

    private void assertMtime(Instant actual) {
        Duration precision = source.info().mtimePrecision();
        assertTrue(Duration.between(SinkFixture.MTIME, actual).abs().compareTo(precision) <= 0,
                "modification time: expected " + SinkFixture.MTIME + " within " + precision + ", got " + actual);
    }
}
