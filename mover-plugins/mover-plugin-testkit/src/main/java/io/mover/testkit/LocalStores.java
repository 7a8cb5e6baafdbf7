package io.mover.testkit;

import io.mover.spi.RelativePath;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A store that lives in a local folder, seen past the plugin: for the contract hooks of plugins whose
 * data ends up on a local disk (the local plugin itself, or a server under test that exports a local
 * folder, as the nfs plugin's nfs-ganesha does).
 */
public final class LocalStores {
    private LocalStores() {
    }

    /** The bytes of the file at {@code path} under {@code root}, or empty when there is no regular file there. */
    public static Optional<byte[]> read(Path root, RelativePath path) {
        Path file = root.resolve(path.toString());
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try {
            return Optional.of(Files.readAllBytes(file));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every file and folder below {@code root} as a '/'-separated relative name; empty when {@code root} is missing. */
    public static Set<String> names(Path root) {
        if (!Files.isDirectory(root)) {
            return Set.of();
        }
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(file -> !file.equals(root))
                    .map(file -> root.relativize(file).toString().replace(java.io.File.separatorChar, '/'))
                    .collect(Collectors.toSet());
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes a file (its folders must exist) with the given modification time. */
    public static void createFile(Path root, RelativePath path, byte[] content, Instant lastModified) {
        Path file = root.resolve(path.toString());
        try {
            Files.write(file, content);
            Files.setLastModifiedTime(file, FileTime.from(lastModified));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static void createDirectory(Path root, RelativePath path) {
        try {
            Files.createDirectories(root.resolve(path.toString()));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
