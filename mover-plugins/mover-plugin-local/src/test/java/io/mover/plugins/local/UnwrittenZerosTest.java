package io.mover.plugins.local;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.mover.spi.Entry;
import io.mover.spi.RelativePath;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Blocks of zeros allocated (fallocate mode 0) rather than written where nothing was written yet (issue 5). */
final class UnwrittenZerosTest {
    private static final Instant MTIME = Instant.parse("2022-01-02T03:04:05Z");
    private static final int BLOCK = 1 << 20;

    @TempDir
    private Path temporary;

    /** The JDK does not tell a file's allocated blocks; stat(1) does (its %b counts 512-byte units). */
    private static long allocatedBytes(Path file) throws IOException, InterruptedException {
        return Long.parseLong(run("stat", "-c", "%b", file.toString()).strip()) * 512;
    }

    private static String run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(10, TimeUnit.SECONDS)).isTrue();
        return out;
    }

    /** Bytes in extents the file system marks unwritten (filefrag -v: allocated, never written, read as zeros). */
    private static long unwrittenBytes(Path file) throws IOException, InterruptedException {
        long blocks = 0;
        for (String line : run("filefrag", "-v", file.toString()).split("\n")) {
            String[] fields = line.trim().split("[\\s:.]+");
            if (line.contains("unwritten") && fields.length > 5) {
                blocks += Long.parseLong(fields[5]);
            }
        }
        return blocks * 4096;
    }

    private static boolean fallocateHere(Path directory) {
        return LinuxCalls.INSTANCE.isPresent() && LocalFiles.onLocalDisk(directory);
    }

    private LocalSinkWriter writer(Path target, Path temp, long existing) throws IOException {
        FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        RelativePath path = RelativePath.of(target.getFileName().toString());
        return new LocalSinkWriter(path, target, temp, channel, Entry.file(path, 0, MTIME), true, false, fallocateHere(temp.getParent()),
                new HashSet<>(), existing, false);
    }

    @Test
    void aFileOfZerosIsAllocatedWholeWithoutAWrite() throws IOException, InterruptedException {
        assumeTrue(fallocateHere(temporary));
        Path target = temporary.resolve("zeros.bin");
        long size = 6L * BLOCK + 5;
        LocalSinkWriter writer = writer(target, temporary.resolve(".tmp-zeros"), 0);
        for (long position = size - 5; position >= 0; position -= BLOCK) {
            // backwards, as parallel ranges may arrive: the last block first
            writer.writeZeros(position, (int) Math.min(BLOCK, size - position));
        }
        writer.commit();
        assertThat(Files.size(target)).isEqualTo(size);
        assertThat(Arrays.equals(Files.readAllBytes(target), new byte[(int) size])).isTrue();
        // allocated (not sparse: du says its size), and never written
        assertThat(allocatedBytes(target)).isGreaterThanOrEqualTo(size);
        assumeTrue(run("sh", "-c", "command -v filefrag || echo none").startsWith("/"));
        assertThat(unwrittenBytes(target)).isGreaterThanOrEqualTo(size - 5);
    }

    @Test
    void dataAndZerosFromSeveralThreadsInAnyOrderReadBackAsSent() throws Exception {
        Path target = temporary.resolve("mixed.bin");
        int blocks = 48;
        long size = (long) blocks * BLOCK - 1000;
        byte[] expected = new byte[(int) size];
        Random random = new Random(5);
        List<Integer> order = new ArrayList<>();
        for (int block = 0; block < blocks; block++) {
            if (block % 3 != 0) {
                int length = (int) Math.min(BLOCK, size - (long) block * BLOCK);
                byte[] bytes = new byte[length];
                random.nextBytes(bytes);
                System.arraycopy(bytes, 0, expected, block * BLOCK, length);
            }
            order.add(block);
        }
        Collections.shuffle(order, random);
        LocalSinkWriter writer = writer(target, temporary.resolve(".tmp-mixed"), 0);
        // a block of zeros over bytes written before (a retry) is written: allocation would keep the bytes
        writer.write(0, ByteBuffer.wrap(new byte[BLOCK]).put(0, (byte) 9));
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int block : order) {
                long position = (long) block * BLOCK;
                int length = (int) Math.min(BLOCK, size - position);
                done.add(threads.submit(() -> {
                    if (block % 3 == 0) {
                        writer.writeZeros(position, length);
                    }
                    else {
                        writer.write(position, ByteBuffer.wrap(expected, (int) position, length).slice());
                    }
                }));
            }
            for (Future<?> future : done) {
                future.get(60, TimeUnit.SECONDS);
            }
        }
        finally {
            threads.shutdownNow();
        }
        writer.commit();
        assertThat(Files.size(target)).isEqualTo(size);
        assertThat(sha256(Files.readAllBytes(target))).isEqualTo(sha256(expected));
    }

    @Test
    void aContinuedPartialHasItsZerosWrittenOverItsOldBytesAndAllocatedPastThem() throws IOException, InterruptedException {
        Path target = temporary.resolve("partial.bin");
        Path temp = temporary.resolve(".tmp-partial");
        byte[] old = new byte[2 * BLOCK];
        Arrays.fill(old, (byte) 7);
        Files.write(temp, old);
        LocalSinkWriter writer = writer(target, temp, old.length);
        for (int block = 0; block < 4; block++) {
            writer.writeZeros((long) block * BLOCK, BLOCK);
        }
        writer.commit();
        assertThat(Files.readAllBytes(target)).isEqualTo(new byte[4 * BLOCK]);
        assertThat(allocatedBytes(target)).isGreaterThanOrEqualTo(4L * BLOCK);
    }

    @Test
    void whereFallocateFailsTheZerosAreWrittenAndItIsNotTriedAgain() throws IOException, InterruptedException {
        assumeTrue(fallocateHere(temporary));
        // the descriptor cannot be opened (a folder in the temporary's place): the first block says so, the writer writes
        Path folder = Files.createDirectory(temporary.resolve("not-a-file"));
        UnwrittenZeros zeros = new UnwrittenZeros(0, false, LinuxCalls.INSTANCE, folder);
        assertThat(zeros.placed(0, BLOCK)).isFalse();
        assertThat(zeros.placed(BLOCK, BLOCK)).isFalse();
        zeros.close();
        // no native calls (off Linux, off a local disk): never placed
        assertThat(new UnwrittenZeros(0, false, Optional.empty(), folder).placed(0, BLOCK)).isFalse();
        // a file allocated through it: its size and its blocks, nothing written
        Path file = Files.createFile(temporary.resolve("file"));
        UnwrittenZeros allocating = new UnwrittenZeros(0, false, LinuxCalls.INSTANCE, file);
        assertThat(allocating.placed(BLOCK, BLOCK)).isTrue();
        allocating.close();
        assertThat(Files.size(file)).isEqualTo(2L * BLOCK);
        assertThat(allocatedBytes(file)).isGreaterThanOrEqualTo(BLOCK).isLessThan(2L * BLOCK);
        // closed: later blocks are the caller's to write
        assertThat(allocating.placed(3L * BLOCK, BLOCK)).isFalse();
    }

    private static String sha256(byte[] bytes) throws NoSuchAlgorithmException {
        return java.util.HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }
}
