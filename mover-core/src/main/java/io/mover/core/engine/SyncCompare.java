package io.mover.core.engine;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;

import io.mover.spi.ContentHashes;
import io.mover.spi.Entry;
import io.mover.spi.EntryType;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.Source;
import io.mover.spi.SourceReader;

import static java.util.Objects.requireNonNull;

/**
 * Decides whether an entry present on both sides is unchanged (rclone's operations.Equal): size first,
 * then modification times within the coarser precision of the two endpoints, or a content hash. Only
 * what the listings carried is used, except for {@code --compare checksum} without a hash both endpoints
 * know, where both files are read. Thread-safe.
 */
final class SyncCompare {
    enum Verdict { EQUAL, CHANGED, ATTRIBUTES_ONLY }

    private final SyncOptions.ComparePolicy policy;
    private final Duration precision;
    private final Source source;
    private final Optional<Source> destination;
    private final boolean modes;
    /** The precision in nanoseconds, or -1 past 31 years (no endpoint is that coarse): then the times are compared as durations. */
    private final long precisionNanos;

    /**
     * @param precision the coarser of the two endpoints' mtime precisions
     * @param destination a reader of the destination, needed only to hash files by reading them
     * @param modes whether both endpoints keep POSIX modes, so a mode change alone is repaired
     */
    SyncCompare(SyncOptions.ComparePolicy policy, Duration precision, Source source, Optional<Source> destination, boolean modes) {
        this.policy = requireNonNull(policy, "policy is null");
        this.precision = requireNonNull(precision, "precision is null");
        this.source = requireNonNull(source, "source is null");
        this.destination = requireNonNull(destination, "destination is null");
        this.modes = modes;
        this.precisionNanos = precision.getSeconds() < 1_000_000_000L ? precision.toNanos() : -1;
    }

    Verdict compare(Entry from, Entry to) {
        if (from.type() == EntryType.SYMLINK) {
            return from.attributes().symlinkTarget().equals(to.attributes().symlinkTarget()) ? Verdict.EQUAL : Verdict.CHANGED;
        }
        if (from.size() != to.size()) {
            return Verdict.CHANGED;
        }
        boolean sameTime = sameTime(from, to);
        boolean same = switch (policy) {
            case SIZE_MTIME -> sameTime;
            case SIZE_ONLY -> true;
            case CHECKSUM -> sameContent(from, to);
        };
        if (!same) {
            return Verdict.CHANGED;
        }
        boolean modeDiffers = modes && from.attributes().posixMode().isPresent() && to.attributes().posixMode().isPresent()
                && from.attributes().posixMode().getAsInt() != to.attributes().posixMode().getAsInt();
        // with --size-only or checksums the content is equal; a differing time is then repaired, not copied
        return modeDiffers || (!sameTime && policy != SyncOptions.ComparePolicy.SIZE_ONLY) ? Verdict.ATTRIBUTES_ONLY : Verdict.EQUAL;
    }

    /** Times closer than the coarser precision are equal: a FAT destination keeps 2 s, SMB 100 ns. */
    boolean sameTime(Entry from, Entry to) {
        Instant a = from.lastModified();
        Instant b = to.lastModified();
        if (precisionNanos < 0) {
            return Duration.between(a, b).abs().compareTo(precision) < 0;
        }
        // in long arithmetic, not two Durations per file compared: a seconds' difference beyond the precision's
        // decides alone, and a smaller one cannot overflow once scaled to nanoseconds
        long seconds = b.getEpochSecond() - a.getEpochSecond();
        if (Math.abs(seconds) > precisionNanos / 1_000_000_000L + 1) {
            return false;
        }
        long nanos = seconds * 1_000_000_000L + (b.getNano() - a.getNano());
        return Math.abs(nanos) < precisionNanos;
    }

    private boolean sameContent(Entry from, Entry to) {
        Map<String, String> known = from.attributes().hashes();
        for (Map.Entry<String, String> hash : known.entrySet()) {
            String other = to.attributes().hashes().get(hash.getKey());
            if (other != null) {
                return other.equalsIgnoreCase(hash.getValue());
            }
        }
        Source view = destination.orElseThrow(() -> new MoverException(ErrorCode.UNSUPPORTED,
                "--compare checksum needs to read the destination, and no installed plugin can read it"));
        for (String kind : source.info().hashKinds()) {
            if (view.info().hashKinds().contains(kind) && source instanceof ContentHashes a && view instanceof ContentHashes b) {
                Optional<String> left = a.hash(from.path(), kind);
                Optional<String> right = b.hash(to.path(), kind);
                if (left.isPresent() && right.isPresent()) {
                    return left.get().equalsIgnoreCase(right.get());
                }
            }
        }
        return sha256(source, from).equals(sha256(view, to));
    }

    private static String sha256(Source endpoint, Entry entry) {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
        ByteBuffer buffer = ByteBuffer.allocate(1 << 20);
        try (SourceReader reader = endpoint.open(entry.path())) {
            long position = 0;
            while (true) {
                buffer.clear();
                int read = reader.read(position, buffer);
                if (read <= 0) {
                    break;
                }
                buffer.flip();
                digest.update(buffer);
                position += read;
            }
        }
        return HexFormat.of().formatHex(digest.digest());
    }
}
