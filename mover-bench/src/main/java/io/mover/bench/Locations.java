package io.mover.bench;

/** Locations below the target the user named. */
final class Locations {
    private Locations() {}

    /**
     * {@code relative} below {@code location}, which may be a plain path or a URI with a query (a SAS
     * token stays where it was: after the path).
     */
    static String child(String location, String relative) {
        int query = location.indexOf('?');
        String base = query < 0 ? location : location.substring(0, query);
        String rest = query < 0 ? "" : location.substring(query);
        while (base.endsWith("/") && base.length() > 1 && !base.endsWith("://")) {
            base = base.substring(0, base.length() - 1);
        }
        String separator = base.endsWith("/") ? "" : "/";
        return base + separator + relative + rest;
    }
}
