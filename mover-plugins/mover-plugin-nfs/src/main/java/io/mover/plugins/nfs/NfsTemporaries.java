package io.mover.plugins.nfs;

import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

/**
 * The nfs sink's temporaries: {@code .mover.<jobKey>.<12 hex>} beside the final name. The job key has no
 * dot, so a name tells which job it belongs to; only names of exactly this shape count as temporaries.
 */
final class NfsTemporaries {
    private static final Pattern TEMPORARY = Pattern.compile("\\.mover\\.([A-Za-z0-9_-]{1,64})\\.[0-9a-f]{12}");

    private NfsTemporaries() {
    }

    static boolean isTemporary(String name) {
        return TEMPORARY.matcher(name).matches();
    }

    static boolean belongsTo(String name, String jobKey) {
        java.util.regex.Matcher matcher = TEMPORARY.matcher(name);
        return matcher.matches() && matcher.group(1).equals(jobKey);
    }

    static String name(String jobKey) {
        byte[] random = new byte[6];
        ThreadLocalRandom.current().nextBytes(random);
        return ".mover." + jobKey + "." + HexFormat.of().formatHex(random);
    }
}
