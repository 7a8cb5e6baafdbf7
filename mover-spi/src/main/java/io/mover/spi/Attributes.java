package io.mover.spi;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

import static java.util.Objects.requireNonNull;

/**
 * Metadata beyond size and modification time, each part optional because endpoints differ.
 *
 * @param posixMode permission bits ({@code 0755}), where the endpoint has them
 * @param creationTime birth time, where the endpoint has one
 * @param symlinkTarget the link's target, for {@link EntryType#SYMLINK} entries
 * @param hashes content hashes the endpoint already knows, by kind ({@code md5}, {@code sha256}), lower-case hex
 * @param extended endpoint-specific attributes by name (SMB attributes, an ETag), preserved between
 *        endpoints of the same kind
 */
public record Attributes(OptionalInt posixMode, Optional<Instant> creationTime, Optional<String> symlinkTarget,
        Map<String, String> hashes, Map<String, String> extended) {
    public static final Attributes NONE = new Attributes(OptionalInt.empty(), Optional.empty(), Optional.empty(), Map.of(), Map.of());

    public Attributes {
        requireNonNull(posixMode, "posixMode is null");
        requireNonNull(creationTime, "creationTime is null");
        requireNonNull(symlinkTarget, "symlinkTarget is null");
        hashes = Map.copyOf(requireNonNull(hashes, "hashes is null"));
        extended = Map.copyOf(requireNonNull(extended, "extended is null"));
    }

    public static Attributes ofMode(int posixMode) {
        return new Attributes(OptionalInt.of(posixMode), Optional.empty(), Optional.empty(), Map.of(), Map.of());
    }

    public Attributes withSymlinkTarget(String target) {
        return new Attributes(posixMode, creationTime, Optional.of(target), hashes, extended);
    }
}
