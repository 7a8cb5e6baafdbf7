package io.mover.plugins.local;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.RelativePath;

/**
 * The names of the local sink's temporaries: {@code .mover.<jobKey>.<12 hex>.<name>}. A job key has no
 * dot, so the job a temporary belongs to can be read back from its name, and only names of exactly
 * this shape count as temporaries (a user's {@code .mover.notes} is an ordinary file).
 */
final class LocalTemporaries {
    static final String PREFIX = ".mover.";
    private static final Pattern TEMPORARY = Pattern.compile("\\.mover\\.[A-Za-z0-9_-]{1,64}\\.[0-9a-f]{12}\\..+", Pattern.DOTALL);
    /** Keeps the temporary name under NAME_MAX (255 bytes) whatever the final name. */
    private static final int MAX_NAME_BYTES_IN_TEMP = 80;

    private LocalTemporaries() {}

    /** Refuses a path the user asks for whose name has a temporary's shape: mover would take it for its own and remove it. */
    static void refuseReserved(RelativePath path) {
        for (String segment : path.segments()) {
            if (isTemporary(segment)) {
                throw new MoverException(ErrorCode.INVALID_PATH, "cannot write '" + path + "': names of the form .mover.<job>.<hex>.<name> are mover's temporaries");
            }
        }
    }

    static boolean isTemporary(String name) {
        return name.startsWith(PREFIX) && TEMPORARY.matcher(name).matches();
    }

    /** A fresh temporary name for a file called {@code name}; the name is kept (cut short) to help a human reading the directory. */
    static String name(String jobKey, String name) {
        byte[] random = new byte[6];
        ThreadLocalRandom.current().nextBytes(random);
        return PREFIX + jobKey + "." + HexFormat.of().formatHex(random) + "." + truncate(name);
    }

    /**
     * The temporary of a resumable file: the same shape, its 12 hex digits taken from {@code key}, so that
     * the next writer of the key finds it.
     */
    static String resumableName(String jobKey, String key, String name) {
        try {
            byte[] digest = java.security.MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            return PREFIX + jobKey + "." + HexFormat.of().formatHex(digest, 0, 6) + "." + truncate(name);
        }
        catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }

    /** The final name cut to a bounded number of UTF-8 bytes, on a character boundary. */
    private static String truncate(String name) {
        if (name.getBytes(StandardCharsets.UTF_8).length <= MAX_NAME_BYTES_IN_TEMP) {
            return name;
        }
        int end = 0;
        int bytes = 0;
        while (end < name.length()) {
            int cp = name.codePointAt(end);
            int length = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8).length;
            if (bytes + length > MAX_NAME_BYTES_IN_TEMP) {
                break;
            }
            bytes += length;
            end += Character.charCount(cp);
        }
        return name.substring(0, end);
    }
}
