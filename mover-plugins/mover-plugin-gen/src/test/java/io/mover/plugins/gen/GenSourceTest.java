package io.mover.plugins.gen;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.mover.spi.Entry;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.RelativePath;
import io.mover.spi.Source;
import io.mover.spi.SourceReader;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static io.mover.plugins.gen.GenFixtures.open;
import static io.mover.plugins.gen.GenFixtures.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Timeout(60)
class GenSourceTest {
    @Test
    void theSameUriGivesTheSameBytesAndAnotherSeedOthers() {
        try (Source a = open("gen://?files=3&size=100KiB"); Source b = open("gen://?files=3&size=100KiB");
                Source c = open("gen://?files=3&size=100KiB&seed=7")) {
            assertThat(read(a, "f1.bin")).isEqualTo(read(b, "f1.bin"));
            assertThat(read(a, "f1.bin")).isNotEqualTo(read(a, "f2.bin"));
            assertThat(read(a, "f1.bin")).isNotEqualTo(read(c, "f1.bin"));
        }
    }

    @Test
    void filesAndSizeOrTotalFixTheSizes() {
        try (Source source = open("gen://?files=4&size=1000")) {
            assertThat(sizes(source)).containsExactly(1000L, 1000L, 1000L, 1000L);
        }
        try (Source source = open("gen://?files=3&total=1000")) {
            assertThat(sizes(source)).containsExactly(333L, 333L, 334L);
        }
        try (Source source = open("gen://?size=400&total=1000")) {
            assertThat(sizes(source)).containsExactly(400L, 400L, 200L);
        }
        try (Source source = open("gen://?total=3MiB")) {
            assertThat(sizes(source)).containsExactly(1L << 20, 1L << 20, 1L << 20);
        }
        try (Source source = open("gen:///", Map.of("files", "2", "size", "5"))) {
            assertThat(sizes(source)).containsExactly(5L, 5L);
        }
    }

    @Test
    void aLargeTreeIsSpreadOverFoldersOfAtMostFanoutEntries() {
        try (Source source = open("gen://?files=10000&size=1&fanout=100")) {
            List<Entry> root = source.list(RelativePath.ROOT).toList();
            assertThat(root).hasSize(100).allMatch(Entry::isDirectory);
            assertThat(root.getFirst().path()).hasToString("d00");
            assertThat(source.stat(RelativePath.of("d17/f1742.bin"))).get().extracting(Entry::size).isEqualTo(1L);
            assertThat(source.stat(RelativePath.of("d17/f1842.bin"))).as("a file in another folder").isEmpty();
            assertThat(walk(source, RelativePath.ROOT)).isEqualTo(10000);
        }
        try (Source source = open("gen://?files=250&size=1&fanout=100")) {
            assertThat(source.list(RelativePath.ROOT).map(e -> e.path().toString())).containsExactly("d00", "d01", "d02");
            assertThat(source.list(RelativePath.of("d02")).count()).isEqualTo(50);
        }
        try (Source source = open("gen://?files=1001&size=1&fanout=10")) {
            assertThat(walk(source, RelativePath.ROOT)).isEqualTo(1001);
            assertThat(source.stat(RelativePath.of("d1/d0/d0/f1000.bin"))).isPresent();
        }
        try (Source source = open("gen://?files=0")) {
            assertThat(source.list(RelativePath.ROOT)).isEmpty();
        }
    }

    private static long walk(Source source, RelativePath directory) {
        try (Stream<Entry> entries = source.list(directory)) {
            long files = 0;
            for (Entry entry : entries.toList()) {
                assertThat(source.stat(entry.path())).contains(entry);
                files += entry.isDirectory() ? walk(source, entry.path()) : 1;
            }
            return files;
        }
    }

    @Test
    void positionalReadsAgreeWithAWholeRead() {
        try (Source source = open("gen://?files=1&size=20MiB&data=mixed"); SourceReader reader = source.open(RelativePath.of("f0.bin"))) {
            byte[] whole = read(source, "f0.bin");
            Random random = new Random(3);
            for (int i = 0; i < 100; i++) {
                int position = random.nextInt(whole.length);
                ByteBuffer buffer = random.nextBoolean() ? ByteBuffer.allocate(1 + random.nextInt(1 << 20)) : ByteBuffer.allocateDirect(1 + random.nextInt(1 << 20));
                int n = reader.read(position, buffer);
                assertThat(n).isEqualTo(Math.min(buffer.capacity(), whole.length - position)).isEqualTo(buffer.position());
                byte[] got = new byte[n];
                buffer.flip().get(got);
                assertThat(got).isEqualTo(Arrays.copyOfRange(whole, position, position + n));
            }
            assertThat(reader.read(whole.length, ByteBuffer.allocate(10))).isZero();
            assertThat(reader.read(whole.length - 2, ByteBuffer.allocate(10))).isEqualTo(2);
        }
    }

    @Test
    void oneReaderServesConcurrentReads() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try (Source source = open("gen://?files=1&size=4MiB"); SourceReader reader = source.open(RelativePath.of("f0.bin"))) {
            byte[] whole = read(source, "f0.bin");
            List<Future<Boolean>> reads = new ArrayList<>();
            for (int block = 0; block < 64; block++) {
                int position = block * 65536;
                reads.add(pool.submit(() -> {
                    ByteBuffer buffer = ByteBuffer.allocate(65536);
                    reader.read(position, buffer);
                    return Arrays.equals(buffer.array(), Arrays.copyOfRange(whole, position, position + 65536));
                }));
            }
            for (Future<Boolean> result : reads) {
                assertThat(result.get(30, TimeUnit.SECONDS)).isTrue();
            }
        }
        finally {
            pool.shutdownNow();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void missingEntriesAndFilesAsDirectoriesAreRefused() {
        try (Source source = open("gen://?files=3&size=1")) {
            assertThat(source.stat(RelativePath.of("f3.bin"))).isEmpty();
            assertThat(source.stat(RelativePath.of("x"))).isEmpty();
            assertThatThrownBy(() -> source.open(RelativePath.of("f9.bin"))).isInstanceOfSatisfying(MoverException.class,
                    e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND));
            assertThatThrownBy(() -> source.list(RelativePath.of("f0.bin"))).isInstanceOfSatisfying(MoverException.class,
                    e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_A_DIRECTORY));
            assertThatThrownBy(() -> source.list(RelativePath.of("d0"))).isInstanceOfSatisfying(MoverException.class,
                    e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND));
        }
    }

    @Test
    void badParametersAreOneClearError() {
        assertThatThrownBy(() -> open("gen://?files=2&size=1&total=5")).hasMessageContaining("at most two of files, size and total");
        assertThatThrownBy(() -> open("gen://?sise=1")).hasMessageContaining("sise: unknown key");
        assertThatThrownBy(() -> open("gen://?data=noise")).hasMessageContaining("one of zeros, random, text, mixed");
        assertThatThrownBy(() -> open("gen://?files=2", Map.of("files", "3"))).hasMessageContaining("both in the URI and in the configuration");
        assertThatThrownBy(() -> open("gen://host/path")).hasMessageContaining("take no host or path");
        assertThatThrownBy(() -> open("gen://?files=1&files=2")).hasMessageContaining("given twice");
    }

    private static List<Long> sizes(Source source) {
        return source.list(RelativePath.ROOT).map(Entry::size).toList();
    }
}
