package com.example.mover.checksums;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.RelativePath;

import static java.util.Objects.requireNonNull;

/**
 * Where things live in the store: data at {@code <root>/<path>}, its checksum at
 * {@code <root>/.checksums/<path>.sha256}, and temporaries as {@code .partial.<jobKey>.<12 hex>} beside
 * their final name. Immutable and thread-safe.
 */
record StoreLayout(Path root) {
    static final String SIDECARS = ".checksums";
    static final String SUFFIX = ".sha256";
    static final String PARTIAL = ".partial.";
    /** A job key never contains a dot, so the job a temporary belongs to can be read back from its name. */
    private static final Pattern TEMPORARY = Pattern.compile("\\.partial\\.[A-Za-z0-9_-]{1,64}\\.[0-9a-f]{12}");
    private static final int NAME_MAX = 255;

    StoreLayout {
        requireNonNull(root, "root is null");
    }

    static boolean isTemporary(String name) {
        return TEMPORARY.matcher(name).matches();
    }

    static boolean isTemporaryOf(String name, String jobKey) {
        return isTemporary(name) && name.startsWith(PARTIAL + jobKey + ".");
    }

    /** Our own names cannot be written by a user: they would be hidden from listings or swept away. */
    static void refuseReserved(RelativePath path) {
        if (!path.isRoot() && path.segments().getFirst().equals(SIDECARS)) {
            throw new MoverException(ErrorCode.INVALID_PATH, "cannot write '" + path + "': " + SIDECARS + " at the top is where this store keeps its checksums");
        }
        for (String segment : path.segments()) {
            if (isTemporary(segment)) {
                throw new MoverException(ErrorCode.INVALID_PATH, "cannot write '" + path + "': names like .partial.<job>.<hex> are this store's temporaries");
            }
        }
    }

    /** Hidden from {@code stat} and {@code list}: the sidecar tree and temporaries. */
    static boolean isHidden(RelativePath path) {
        return !path.isRoot() && (path.segments().getFirst().equals(SIDECARS) || isTemporary(path.name()));
    }

    Path data(RelativePath path) {
        Path result = root;
        for (String segment : path.segments()) {
            result = result.resolve(segment);
        }
        return result;
    }

    /** The directory that holds the sidecars of the files in {@code directory}. */
    Path sidecarDirectory(RelativePath directory) {
        Path result = root.resolve(SIDECARS);
        for (String segment : directory.segments()) {
            result = result.resolve(segment);
        }
        return result;
    }

    /**
     * {@code <name>.sha256}; a name too long to take the suffix (the limit is 255 bytes) is replaced by
     * the SHA-256 of the name, which keeps sidecars one per file without a second namespace.
     */
    Path sidecar(RelativePath file) {
        String name = file.name() + SUFFIX;
        if (name.getBytes(StandardCharsets.UTF_8).length > NAME_MAX) {
            name = HexFormat.of().formatHex(sha256().digest(file.name().getBytes(StandardCharsets.UTF_8))) + ".long" + SUFFIX;
        }
        return sidecarDirectory(file.parent()).resolve(name);
    }

    static String temporaryName(String jobKey) {
        byte[] random = new byte[6];
        ThreadLocalRandom.current().nextBytes(random);
        return PARTIAL + jobKey + "." + HexFormat.of().formatHex(random);
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        }
        catch (NoSuchAlgorithmException e) {
            // every Java platform must provide SHA-256: its absence is a broken runtime
            throw new MoverException(ErrorCode.INTERNAL, "this Java runtime has no SHA-256", e);
        }
    }

    /** The lower-case hex SHA-256 of a file's content. */
    static String hashOf(Path file) throws IOException {
        MessageDigest digest = sha256();
        byte[] buffer = new byte[64 * 1024];
        try (InputStream in = Files.newInputStream(file)) {
            for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
                digest.update(buffer, 0, read);
            }
        }
        return HexFormat.of().formatHex(digest.digest());
    }
}
