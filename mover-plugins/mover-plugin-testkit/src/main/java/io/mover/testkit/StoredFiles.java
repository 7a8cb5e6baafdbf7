package io.mover.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.mover.spi.RelativePath;

/**
 * {@link SinkFixture#readBack} and {@link SinkFixture#storedNames} for a sink that stores files as
 * themselves under a local directory (a local disk, a mounted share, a receiver writing to one): read
 * past the plugin, straight from the directory.
 */
public final class StoredFiles {
    private StoredFiles() {}

    /** The bytes of the regular file at {@code path} under {@code root}, or empty. */
    public static Optional<byte[]> read(Path root, RelativePath path) {
        Path file = root.resolve(path.toString());
        try {
            return Files.isRegularFile(file) ? Optional.of(Files.readAllBytes(file)) : Optional.empty();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every path under {@code root}, relative, with {@code /} separators. */
    public static Set<String> names(Path root) {
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(file -> !file.equals(root))
                    .map(file -> root.relativize(file).toString().replace(java.io.File.separatorChar, '/'))
                    .collect(Collectors.toSet());
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
