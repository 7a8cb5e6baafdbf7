package io.mover.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;

/** Test trees: build one, and describe one as relative path to SHA-256 (or "dir") for comparison. */
final class Trees {
    private Trees() {}

    static Path sample(Path root) throws IOException {
        Files.createDirectories(root.resolve("a/b/c"));
        Files.writeString(root.resolve("top.txt"), "top level\n");
        Files.write(root.resolve("a/zero.bin"), new byte[0]);
        Files.writeString(root.resolve("a/b/c/deep.txt"), "deep\n".repeat(1000));
        Files.writeString(root.resolve("a/ünïcødé ☃.txt"), "snow\n");
        byte[] big = new byte[3 * 1024 * 1024 + 12345];
        new Random(7).nextBytes(big);
        Files.write(root.resolve("a/b/big.bin"), big);
        return root;
    }

    static Map<String, String> describe(Path root) throws IOException {
        Map<String, String> entries = new TreeMap<>();
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : (Iterable<Path>) paths::iterator) {
                String relative = root.relativize(path).toString();
                entries.put(relative, Files.isDirectory(path) ? "dir" : sha256(path));
            }
        }
        return entries;
    }

    static String sha256(Path file) throws IOException {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
