package io.mover.plugins.codecs.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * About 64 MiB of realistic mixed data, cut into 1 MiB blocks (the engine's default block size) and
 * shuffled so that every thread sees the same mix: JDK class files (the jimage {@code lib/modules}),
 * native code (JDK shared libraries), text (C headers and docs under /usr), and random bytes standing
 * in for already-compressed media. Deterministic for a given machine.
 */
final class BenchCorpus {
    static final int BLOCK_SIZE = 1 << 20;

    private BenchCorpus() {}

    static List<ByteBuffer> build(int totalMiB) {
        Path javaHome = Path.of(System.getProperty("java.home"));
        List<ByteBuffer> blocks = new ArrayList<>();
        int classes = totalMiB * 7 / 16;
        int nativeCode = totalMiB * 2 / 16;
        int text = totalMiB * 5 / 16;
        int random = totalMiB - classes - nativeCode - text;
        blocks.addAll(fromFile(javaHome.resolve("lib/modules"), 16L << 20, classes));
        blocks.addAll(fromFile(javaHome.resolve("lib/server/libjvm.so"), 0, nativeCode));
        blocks.addAll(text(text));
        SplittableRandom generator = new SplittableRandom(42);
        for (int i = 0; i < random; i++) {
            byte[] bytes = new byte[BLOCK_SIZE];
            generator.nextBytes(bytes);
            blocks.add(direct(bytes));
        }
        Collections.shuffle(blocks, new Random(7));
        return List.copyOf(blocks);
    }

    private static List<ByteBuffer> fromFile(Path file, long offset, int count) {
        List<ByteBuffer> blocks = new ArrayList<>();
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long start = Math.min(offset, Math.max(0, channel.size() - (long) count * BLOCK_SIZE));
            for (int i = 0; i < count; i++) {
                ByteBuffer block = ByteBuffer.allocateDirect(BLOCK_SIZE);
                long position = start + (long) i * BLOCK_SIZE;
                while (block.hasRemaining() && channel.read(block, position + block.position()) > 0) {
                    // read until the block is full or the file ends
                }
                if (block.position() == 0) {
                    break;
                }
                blocks.add(block.flip());
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return blocks;
    }

    /** Text files from /usr/include and /usr/share/doc, concatenated; synthetic text if the machine has too few. */
    private static List<ByteBuffer> text(int count) {
        ByteBuffer all = ByteBuffer.allocate(count * BLOCK_SIZE);
        for (Path root : List.of(Path.of("/usr/include"), Path.of("/usr/share/doc"))) {
            if (!Files.isDirectory(root)) {
                continue;
            }
            try (Stream<Path> files = Files.walk(root)) {
                for (Path file : (Iterable<Path>) files.filter(BenchCorpus::isText).sorted()::iterator) {
                    if (!all.hasRemaining()) {
                        break;
                    }
                    byte[] bytes = Files.readAllBytes(file);
                    all.put(bytes, 0, Math.min(bytes.length, all.remaining()));
                }
            }
            catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        String filler = "The quick brown fox jumps over the lazy dog; int main(void) { return 0; }\n";
        SplittableRandom generator = new SplittableRandom(3);
        while (all.hasRemaining()) {
            byte[] line = (generator.nextInt(1000) + " " + filler).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            all.put(line, 0, Math.min(line.length, all.remaining()));
        }
        List<ByteBuffer> blocks = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            byte[] bytes = new byte[BLOCK_SIZE];
            all.get(i * BLOCK_SIZE, bytes);
            blocks.add(direct(bytes));
        }
        return blocks;
    }

    private static boolean isText(Path file) {
        String name = file.getFileName().toString();
        return Files.isRegularFile(file) && !Files.isSymbolicLink(file)
                && (name.endsWith(".h") || name.equals("copyright") || name.endsWith(".txt") || name.endsWith(".md"));
    }

    private static ByteBuffer direct(byte[] bytes) {
        return ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
    }
}
