package io.mover.plugins.nfs;

import io.mover.plugins.nfs.client.Fattr;
import io.mover.plugins.nfs.client.FileHandle;
import io.mover.plugins.nfs.client.NfsClient;
import io.mover.spi.Attributes;
import io.mover.spi.Entry;
import io.mover.spi.EntryType;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.RelativePath;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import static java.util.Objects.requireNonNull;

/**
 * Paths under an endpoint's root resolved to handles (directories cached: LOOKUP is a round trip), and
 * NFS attributes turned into {@link Entry}s. Shared by the source and the sink.
 *
 * <p>Thread-safe.
 */
final class NfsTree {
    private static final int MAX_LISTING_REPLY = 64 * 1024;

    private final NfsSession session;
    private final Map<RelativePath, FileHandle> directories = new ConcurrentHashMap<>();
    /** Present when symbolic links are followed (a source with {@code follow-symlinks}). */
    private final Optional<NfsLinks> links;
    private volatile FileHandle root;

    NfsTree(NfsSession session, boolean followLinks) {
        this.session = requireNonNull(session, "session is null");
        this.links = followLinks ? Optional.of(new NfsLinks(this)) : Optional.empty();
    }

    NfsSession session() {
        return session;
    }

    NfsClient client() {
        return session.client();
    }

    /** The endpoint's root handle, resolving (and, for a sink, creating) the folder inside the export once. */
    FileHandle root(boolean create) {
        FileHandle known = root;
        if (known != null) {
            return known;
        }
        FileHandle handle = session.exportRoot();
        String walked = session.export();
        for (String name : session.folder().split("/")) {
            if (name.isEmpty()) {
                continue;
            }
            walked = walked + "/" + name;
            Optional<NfsClient.Lookup> found = client().lookup(handle, name, "lookup " + walked);
            if (found.isEmpty() && !create) {
                throw new MoverException(ErrorCode.NOT_FOUND, session.name() + " does not exist (no " + walked + " in the export)");
            }
            NfsClient.Lookup entry = found.isPresent() ? found.get() : makeDirectory(handle, name, walked);
            if (!entry.attributes().isDirectory()) {
                throw new MoverException(ErrorCode.NOT_A_DIRECTORY, session.name() + ": " + walked + " is a file, not a directory");
            }
            handle = entry.handle();
        }
        root = handle;
        return handle;
    }

    /** MKDIR that accepts a directory made meanwhile (by another writer, or by a retransmitted MKDIR). */
    NfsClient.Lookup makeDirectory(FileHandle parent, String name, String what) {
        try {
            return client().mkdir(parent, name, 0755, "mkdir " + what);
        }
        catch (MoverException e) {
            if (e.code() != ErrorCode.ALREADY_EXISTS) {
                throw e;
            }
            return client().lookup(parent, name, "lookup " + what).filter(found -> found.attributes().isDirectory())
                    .orElseThrow(() -> new MoverException(ErrorCode.NOT_A_DIRECTORY, session.name() + ": " + what + " is a file, not a directory"));
        }
    }

    /** The entry at {@code path} with its handle, or empty when it does not exist; a file in the way is NOT_A_DIRECTORY. */
    Optional<NfsClient.Lookup> resolve(RelativePath path) {
        if (path.isRoot()) {
            FileHandle handle = root(false);
            return Optional.of(new NfsClient.Lookup(handle, client().getattr(handle, "getattr " + describe(path))));
        }
        Optional<FileHandle> parent = directory(path.parent());
        if (parent.isEmpty()) {
            return Optional.empty();
        }
        Optional<NfsClient.Lookup> found = lookupFresh(parent.get(), path);
        if (found.isPresent() && links.isPresent() && found.get().attributes().type() == Fattr.SYMLINK) {
            return links.get().target(path, found.get());
        }
        return found;
    }

    private Optional<NfsClient.Lookup> lookupFresh(FileHandle parent, RelativePath path) {
        try {
            return client().lookup(parent, path.name(), "lookup " + describe(path));
        }
        catch (MoverException e) {
            forgetOnStale(e);
            throw e;
        }
    }

    /** The handle of a directory, or empty when it does not exist. */
    Optional<FileHandle> directory(RelativePath path) {
        if (path.isRoot()) {
            return Optional.of(root(false));
        }
        FileHandle cached = directories.get(path);
        if (cached != null) {
            return Optional.of(cached);
        }
        Optional<FileHandle> parent = directory(path.parent());
        if (parent.isEmpty()) {
            return Optional.empty();
        }
        Optional<NfsClient.Lookup> found = lookupFresh(parent.get(), path);
        if (found.isPresent() && links.isPresent() && found.get().attributes().type() == Fattr.SYMLINK) {
            found = links.get().target(path, found.get());
        }
        if (found.isEmpty()) {
            return Optional.empty();
        }
        if (!found.get().attributes().isDirectory()) {
            throw new MoverException(ErrorCode.NOT_A_DIRECTORY, describe(path) + " is a file, not a directory");
        }
        directories.put(path, found.get().handle());
        return Optional.of(found.get().handle());
    }

    void remember(RelativePath path, FileHandle handle) {
        directories.put(path, handle);
    }

    /** A removed directory's handle (and its descendants') must not be reused: a new one of that name has another. */
    void forget(RelativePath path) {
        directories.keySet().removeIf(known -> known.startsWith(path));
    }

    /** After a stale handle, everything cached may be stale: the next calls look up afresh. */
    void forgetOnStale(MoverException e) {
        if (e.getMessage() != null && e.getMessage().contains("stale file handle")) {
            directories.clear();
        }
    }

    /** The entry at {@code path}, or empty when it (or a folder above it) does not exist. */
    Optional<Entry> stat(RelativePath path) {
        try {
            return resolve(path).map(found -> entry(path, found));
        }
        catch (MoverException e) {
            if (e.code() == ErrorCode.NOT_A_DIRECTORY) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /** A directory's entries, remembering the handles of its subdirectories; NOT_FOUND or NOT_A_DIRECTORY as the SPI says. */
    List<NfsClient.DirEntry> list(RelativePath directory) {
        Optional<NfsClient.Lookup> found = resolve(directory);
        if (found.isEmpty()) {
            throw new MoverException(ErrorCode.NOT_FOUND, describe(directory) + " does not exist");
        }
        if (!found.get().attributes().isDirectory()) {
            throw new MoverException(ErrorCode.NOT_A_DIRECTORY, describe(directory) + " is a file, not a directory");
        }
        List<NfsClient.DirEntry> entries = listRaw(directory);
        for (NfsClient.DirEntry item : entries) {
            if (item.attributes().isDirectory()) {
                remember(directory.resolve(item.name()), item.handle());
            }
        }
        return entries;
    }

    /** Every entry of a directory with handles and attributes; NOT_FOUND when missing. */
    List<NfsClient.DirEntry> listRaw(RelativePath directory) {
        FileHandle handle = directory(directory).orElseThrow(() -> new MoverException(ErrorCode.NOT_FOUND,
                describe(directory) + " does not exist"));
        try {
            return client().readdirplus(handle, MAX_LISTING_REPLY, "list " + describe(directory));
        }
        catch (MoverException e) {
            forgetOnStale(e);
            if (e.code() == ErrorCode.NOT_FOUND) {
                forget(directory);
            }
            throw e;
        }
    }

    /**
     * The entries of a directory with handles' attributes: a symbolic link as a link with its target (READLINK), or,
     * followed, as what it leads to ({@link NfsLinks}).
     */
    List<Entry> entries(RelativePath directory, java.util.function.Predicate<String> hide) {
        List<Entry> entries = new java.util.ArrayList<>();
        for (NfsClient.DirEntry item : list(directory)) {
            if (hide.test(item.name())) {
                continue;
            }
            RelativePath path = directory.resolve(item.name());
            NfsClient.Lookup found = new NfsClient.Lookup(item.handle(), item.attributes());
            if (item.attributes().type() == Fattr.SYMLINK && links.isPresent()) {
                links.get().follow(path, found).ifPresent(entries::add);
            }
            else {
                entries.add(entry(path, found));
            }
        }
        return entries;
    }

    /** The entry of what {@code found} is; a symbolic link with its target (one READLINK). */
    Entry entry(RelativePath path, NfsClient.Lookup found) {
        if (found.attributes().type() == Fattr.SYMLINK) {
            return link(path, found.attributes(), client().readlink(found.handle(), "read the link " + describe(path)));
        }
        return entry(path, found.attributes());
    }

    static Entry link(RelativePath path, Fattr attributes, String target) {
        return new Entry(path, EntryType.SYMLINK, 0, attributes.mtime(), Attributes.ofMode(attributes.mode()).withSymlinkTarget(target));
    }

    String describe(RelativePath path) {
        return session.name() + (path.isRoot() ? "" : "/" + path);
    }

    static Entry entry(RelativePath path, Fattr attributes) {
        EntryType type = switch (attributes.type()) {
            case Fattr.REGULAR -> EntryType.FILE;
            case Fattr.DIRECTORY -> EntryType.DIRECTORY;
            case Fattr.SYMLINK -> EntryType.SYMLINK;   // its target needs a READLINK: see entry(path, Lookup)
            default -> EntryType.OTHER;
        };
        long size = type == EntryType.FILE ? attributes.size() : 0;
        return new Entry(path, type, size, attributes.mtime(), Attributes.ofMode(attributes.mode()));
    }
}
