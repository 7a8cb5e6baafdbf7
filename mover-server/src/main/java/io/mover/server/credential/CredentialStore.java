package io.mover.server.credential;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

import static java.util.Objects.requireNonNull;

/**
 * Named plugin configurations that hold secrets, set in the server's properties
 * ({@code mover.credentials.<name>.<key>=<value>}) so that a job names a credential instead of carrying
 * its keys. The values never leave this class except into a job's plugin configuration at submit;
 * {@link #toString()} shows names only.
 */
public final class CredentialStore {
    public static final CredentialStore EMPTY = new CredentialStore(Map.of());

    private final Map<String, Map<String, String>> credentials;

    public CredentialStore(Map<String, Map<String, String>> credentials) {
        Map<String, Map<String, String>> copy = new TreeMap<>();
        requireNonNull(credentials, "credentials is null").forEach((name, values) -> {
            if (values == null || values.isEmpty()) {
                throw new IllegalArgumentException("mover.credentials." + name + " has no keys: set mover.credentials." + name + ".<key>=<value>");
            }
            copy.put(name, Map.copyOf(values));
        });
        this.credentials = Map.copyOf(copy);
    }

    /** The keys and values of credential {@code name}, if there is one. */
    public Optional<Map<String, String>> find(String name) {
        return Optional.ofNullable(credentials.get(name));
    }

    /** The configured names, sorted: safe to show. */
    public List<String> names() {
        return List.copyOf(new TreeSet<>(credentials.keySet()));
    }

    @Override
    public String toString() {
        return "CredentialStore" + names();
    }
}
