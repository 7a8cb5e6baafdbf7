package io.mover.e2e;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.stream.Stream;

/** Real trees on disk for end-to-end tests, and their fingerprints: every file's SHA-256 and every folder. */
final class Trees {
    private Trees() {}

    /**
     * Writes a tree with what real trees have: nesting, an empty folder, an empty file, a file larger
     * than a block, one split into ranges when the range size is small, odd names, fixed mtimes.
     */
    static Path sample(Path root) throws IOException {
        Random random = new Random(7);
        write(root.resolve("readme.txt"), "hello, mover\n".repeat(100).getBytes(), random);
        write(root.resolve("empty.bin"), new byte[0], random);
        write(root.resolve("a/b/c/deep.bin"), bytes(random, 3 * 1024 * 1024 + 17), random);
        write(root.resolve("a/large.bin"), bytes(random, 9 * 1024 * 1024), random);
        write(root.resolve("names/with space & ünïcödé.txt"), "odd".getBytes(), random);
        write(root.resolve("names/.hidden"), "dot".getBytes(), random);
        for (int i = 0; i < 50; i++) {
            write(root.resolve("many/f" + i + ".dat"), bytes(random, random.nextInt(20_000)), random);
        }
        Files.createDirectories(root.resolve("empty-folder"));
        return root;
    }

    private static byte[] bytes(Random random, int size) {
        byte[] data = new byte[size];
        random.nextBytes(data);
        return data;
    }

    private static void write(Path file, byte[] data, Random random) throws IOException {
        Files.createDirectories(file.getParent());
        Files.write(file, data);
        Files.setLastModifiedTime(file, FileTime.from(Instant.parse("2025-06-01T00:00:00Z").plusSeconds(random.nextInt(1_000_000))));
    }

    /** Relative path → SHA-256 for files, "dir" for folders, skipping what {@code skip} names. */
    static Map<String, String> fingerprint(Path root, Predicate<Path> skip) {
        Map<String, String> result = new TreeMap<>();
        try (Stream<Path> paths = Files.walk(root)) {
            paths.filter(p -> !p.equals(root)).filter(p -> !skip.test(root.relativize(p))).forEach(p ->
                    result.put(root.relativize(p).toString(), Files.isDirectory(p) ? "dir" : sha256(p)));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return result;
    }

    static Map<String, String> fingerprint(Path root) {
        return fingerprint(root, p -> false);
    }

    static String sha256(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            byte[] buffer = new byte[1 << 16];
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                digest.update(buffer, 0, n);
            }
            return HexFormat.of().formatHex(digest.digest());
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
