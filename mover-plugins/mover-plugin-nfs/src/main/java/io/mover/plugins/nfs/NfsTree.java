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
    private volatile FileHandle root;

    NfsTree(NfsSession session) {
        this.session = requireNonNull(session, "session is null");
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
        return lookupFresh(parent.get(), path);
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
            return resolve(path).map(found -> entry(path, found.attributes()));
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

    String describe(RelativePath path) {
        return session.name() + (path.isRoot() ? "" : "/" + path);
    }

    static Entry entry(RelativePath path, Fattr attributes) {
        EntryType type = switch (attributes.type()) {
            case Fattr.REGULAR -> EntryType.FILE;
            case Fattr.DIRECTORY -> EntryType.DIRECTORY;
            default -> EntryType.OTHER; // symlinks are not followed nor copied: READLINK is not implemented (yet)
        };
        long size = type == EntryType.FILE ? attributes.size() : 0;
        return new Entry(path, type, size, attributes.mtime(), Attributes.ofMode(attributes.mode()));
    }
}
