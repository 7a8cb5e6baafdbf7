package io.mover.plugins.azurefiles;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import io.mover.spi.Attributes;
import io.mover.spi.Entry;

/**
 * Permissions (SDDL) of one share, by key. A permission key names a security descriptor only within its share, so
 * share to share the descriptor itself must travel: a source adds it to its directory entries ({@link #PERMISSION}),
 * one Get Permission per distinct key; a sink turns it back into a key of its own share, one Create Permission per
 * distinct descriptor. Files get theirs from Copy File ({@code x-ms-file-permission-copy-mode: source}) and need
 * neither. Thread-safe; both caches hold what the share answered for the endpoint's life.
 */
final class Permissions {
    static final String PERMISSION = "smb.permission";
    private static final System.Logger LOG = System.getLogger(Permissions.class.getName());

    private final AzureShare share;
    private final Map<String, Optional<String>> sddlByKey = new ConcurrentHashMap<>();
    private final Map<String, String> keyBySddl = new ConcurrentHashMap<>();

    Permissions(AzureShare share) {
        this.share = share;
    }

    /**
     * A directory entry with the SDDL of its permission key added; anything else unchanged. A share that will not
     * tell (a SAS that may not read permissions) leaves the entry without one: the sink then keeps its own default.
     */
    Entry withDescriptor(Entry entry) {
        String key = entry.attributes().extended().get(AzureShare.PERMISSION_KEY);
        if (!entry.isDirectory() || key == null) {
            return entry;
        }
        Optional<String> sddl = sddlByKey.computeIfAbsent(key, this::fetch);
        if (sddl.isEmpty()) {
            return entry;
        }
        Attributes attributes = entry.attributes();
        Map<String, String> extended = new HashMap<>(attributes.extended());
        extended.put(PERMISSION, sddl.get());
        return new Entry(entry.path(), entry.type(), entry.size(), entry.lastModified(),
                new Attributes(attributes.posixMode(), attributes.creationTime(), attributes.symlinkTarget(), attributes.hashes(), extended));
    }

    private Optional<String> fetch(String key) {
        try {
            return Optional.ofNullable(share.client.getPermission(key));
        }
        catch (RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "cannot read permission " + key + " of " + share.location.display() + ": " + AzureErrors.code(e));
            return Optional.empty();
        }
    }

    /** The key of {@code sddl} in this share, creating the permission the first time. */
    String keyFor(String sddl) {
        return keyBySddl.computeIfAbsent(sddl, descriptor -> share.call("create a permission in", io.mover.spi.RelativePath.ROOT, 'c',
                () -> share.client.createPermission(descriptor)));
    }
}
