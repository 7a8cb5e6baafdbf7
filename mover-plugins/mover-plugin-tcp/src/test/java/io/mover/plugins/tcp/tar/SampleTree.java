package io.mover.plugins.tcp.tar;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Random;

/**
 * A tree that exercises tar: files larger than a compression chunk (random and zeros), an empty file, a
 * name longer than ustar's 100 bytes, a non-ASCII name, modes, sub-second times, an empty folder and a link.
 */
final class SampleTree {
    static final String LONG_NAME = "n".repeat(150) + ".txt";
    static final Instant TIME = Instant.parse("2024-05-06T07:08:09.123456789Z");

    private SampleTree() {}

    static Path create(Path root) throws IOException {
        Files.createDirectories(root.resolve("a/b"));
        Files.createDirectories(root.resolve("deep/er/still-deeper"));
        Files.createDirectories(root.resolve("empty-folder"));
        byte[] random = new byte[3 * 1024 * 1024 + 123];
        new Random(42).nextBytes(random);
        Files.write(root.resolve("a/random.bin"), random);
        Files.write(root.resolve("a/zeros.bin"), new byte[2 * 1024 * 1024]);
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 20_000; i++) {
            text.append("line ").append(i).append('\n');
        }
        Files.writeString(root.resolve("a/b/text.txt"), text);
        Files.write(root.resolve("a/b/empty.txt"), new byte[0]);
        Files.writeString(root.resolve("a/b/private.txt"), "only for me\n");
        Files.setPosixFilePermissions(root.resolve("a/b/private.txt"), PosixFilePermissions.fromString("rw-------"));
        Files.writeString(root.resolve("ünïcode näme.txt"), "unicode\n", StandardCharsets.UTF_8);
        Files.writeString(root.resolve("deep/er/still-deeper/" + LONG_NAME), "long\n");
        Files.createSymbolicLink(root.resolve("a/link"), Path.of("b/text.txt"));
        Files.setLastModifiedTime(root.resolve("a/b/text.txt"), FileTime.from(TIME));
        Files.setLastModifiedTime(root.resolve("a/b"), FileTime.from(TIME.minusSeconds(3600)));
        return root;
    }
}
