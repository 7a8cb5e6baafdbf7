package io.mover.plugins.azurefiles;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import io.mover.spi.Attributes;
import io.mover.spi.Entry;

/**
 * Permissions (SDDL) of one share, by key. A permission key names a security descriptor only within its share, so
 * share to share the descriptor itself must travel. A source's directory entries carry their key and the share it
 * belongs to ({@link #ORIGIN}); a sink with {@code preserve-permissions} asks that source for the descriptor when it
 * sets a directory's properties ({@link #descriptor}: one Get Permission per distinct key, only for directories it
 * writes), and turns it into a key of its own share (one Create Permission per distinct descriptor). So a compare,
 * or a job with nothing to write, makes no permission request at all. Files get theirs from Copy File
 * ({@code x-ms-file-permission-copy-mode: source}) and need neither. Thread-safe; both caches hold what the share
 * answered for the endpoint's life.
 */
final class Permissions {
    /** A descriptor itself, in an entry (what older entries carried; still honoured). */
    static final String PERMISSION = "smb.permission";
    /** The share (endpoint URL and share name) whose key {@link AzureShare#PERMISSION_KEY} is, in a source's directory entries. */
    static final String ORIGIN = "smb.permission-share";
    private static final System.Logger LOG = System.getLogger(Permissions.class.getName());
    /**
     * The open sources of this process by share: a source and its sink live in one job of one process, and a sink has
     * no credentials of the source's own to read its permissions with.
     */
    private static final Map<String, List<Permissions>> SOURCES = new ConcurrentHashMap<>();

    private final AzureShare share;
    private final Map<String, Optional<String>> sddlByKey = new ConcurrentHashMap<>();
    private final Map<String, String> keyBySddl = new ConcurrentHashMap<>();

    Permissions(AzureShare share) {
        this.share = share;
    }

    /** The name {@link #ORIGIN} gives this share. */
    private String origin() {
        return share.location.endpoint() + "/" + share.location.share();
    }


    /** Lets sinks read this (source's) share's permissions until {@link #closed}. */
    void opened() {
        SOURCES.computeIfAbsent(origin(), o -> new CopyOnWriteArrayList<>()).add(this);
    }

    void closed() {
        SOURCES.computeIfPresent(origin(), (o, open) -> {
            open.remove(this);
            return open.isEmpty() ? null : open;
        });
    }

    /**
     * The SDDL a source's directory entry stands for: its own {@link #PERMISSION}, or its key read from the open source
     * it came from. Empty when that source is not open here or may not tell (a SAS that may not read permissions):
     * the sink then keeps its own default.
     */
    static Optional<String> descriptor(Entry entry) {
        Map<String, String> extended = entry.attributes().extended();
        if (extended.containsKey(PERMISSION)) {
            return Optional.of(extended.get(PERMISSION));
        }
        String key = extended.get(AzureShare.PERMISSION_KEY);
        String origin = extended.get(ORIGIN);
        if (key == null || origin == null) {
            return Optional.empty();
        }
        Optional<Permissions> source = Optional.ofNullable(SOURCES.get(origin)).flatMap(open -> open.stream().findFirst());
        if (source.isEmpty()) {
            // not expected: a job's sink sets directories' properties while its source is open
            LOG.log(System.Logger.Level.WARNING, "cannot carry the permission of directory " + entry.path() + ": its source share " + origin
                    + " is not open in this process; it keeps the destination's default");
            return Optional.empty();
        }
        return source.get().sddlByKey.computeIfAbsent(key, source.get()::fetch);
    }

    /** A directory entry of this (source's) share with {@link #ORIGIN} added, so that a sink can ask for its descriptor; anything else unchanged. */
    Entry withOrigin(Entry entry) {
        if (!entry.isDirectory() || !entry.attributes().extended().containsKey(AzureShare.PERMISSION_KEY)) {
            return entry;
        }
        Attributes attributes = entry.attributes();
        Map<String, String> extended = new HashMap<>(attributes.extended());
        extended.put(ORIGIN, origin());
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
