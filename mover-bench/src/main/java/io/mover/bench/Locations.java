package io.mover.bench;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

import io.mover.spi.EndpointUri;

/** Locations below the target the user named, and what can be known of its free space. */
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

    /**
     * The bytes a new file may take at {@code location}, where the target can tell: a local path's file
     * system (of its nearest existing ancestor, since the target may not exist yet). Other schemes do
     * not say through the plugin SPI yet.
     */
    static OptionalLong usableSpace(String location) {
        EndpointUri uri = EndpointUri.parse(location);
        if (!uri.scheme().equals("file")) {
            return OptionalLong.empty();
        }
        Path existing = Path.of(uri.path()).toAbsolutePath().normalize();
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null) {
            return OptionalLong.empty();
        }
        try {
            FileStore store = Files.getFileStore(existing);
            return OptionalLong.of(store.getUsableSpace());
        }
        catch (IOException e) {
            return OptionalLong.empty();
        }
    }
}
