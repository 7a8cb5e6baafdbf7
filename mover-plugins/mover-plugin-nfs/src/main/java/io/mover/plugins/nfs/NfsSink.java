package io.mover.plugins.nfs;

import io.mover.plugins.nfs.client.FileHandle;
import io.mover.plugins.nfs.client.NfsClient;
import io.mover.plugins.nfs.client.NfsStatus;
import io.mover.spi.EndpointInfo;
import io.mover.spi.FreeSpace;
import io.mover.spi.Entry;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.PluginCounters;
import io.mover.spi.RelativePath;
import io.mover.spi.Sink;
import io.mover.spi.SinkWriter;
import io.mover.spi.SymbolicLinks;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * An NFS export written through temporaries renamed into place. Listings hide temporaries; the names of
 * temporaries are reserved. Thread-safe.
 */
final class NfsSink implements Sink, SymbolicLinks, PluginCounters, FreeSpace {
    private static final long COMMIT_WINDOW = 32L << 20;
    /** Unstable data kept for possible resending, across all writers: past this, writers COMMIT early (bounds direct memory). */
    private static final long UNSTABLE_CAP = 256L << 20;

    private final NfsTree tree;
    private final String jobKey;
    private final Set<String> openTemporaries = ConcurrentHashMap.newKeySet();
    private final java.util.concurrent.atomic.AtomicLong unstableBytes = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.LongAdder resentWrites = new java.util.concurrent.atomic.LongAdder();

    NfsSink(NfsSession session, String jobKey) {
        this.tree = new NfsTree(session, false);
        this.jobKey = jobKey;
        tree.root(true);
    }

    @Override
    public EndpointInfo info() {
        return NfsSource.INFO;
    }

    /** FSSTAT's bytes available to this user (abytes, RFC 1813 §3.3.18) on the file system of {@code directory}, or of the folder. */
    @Override
    public OptionalLong usableSpace(RelativePath directory) {
        FileHandle handle = tree.directory(directory).orElseGet(() -> tree.root(true));
        return OptionalLong.of(tree.client().fsstat(handle, "FSSTAT of " + tree.describe(directory)).availableBytes());
    }

    @Override
    public Optional<Entry> stat(RelativePath path) {
        if (!path.isRoot() && NfsTemporaries.isTemporary(path.name())) {
            return Optional.empty();
        }
        return tree.stat(path);
    }

    @Override
    public Stream<Entry> list(RelativePath directory) {
        return tree.entries(directory, NfsTemporaries::isTemporary).stream();
    }

    @Override
    public boolean mkdirs(RelativePath directory) {
        refuseReserved(directory);
        if (directory.isRoot()) {
            return false;
        }
        boolean created = false;
        FileHandle parent = tree.root(true);
        RelativePath walked = RelativePath.ROOT;
        for (String name : directory.segments()) {
            walked = walked.resolve(name);
            Optional<FileHandle> known = tree.directory(walked);
            if (known.isPresent()) {
                parent = known.get();
                continue;
            }
            NfsClient.Lookup made = tree.makeDirectory(parent, name, tree.describe(walked));
            created = true;
            tree.remember(walked, made.handle());
            parent = made.handle();
        }
        return created;
    }

    @Override
    public SinkWriter create(RelativePath path, long size, Entry entry) {
        refuseReserved(path);
        if (path.isRoot()) {
            throw new MoverException(ErrorCode.INVALID_PATH, "cannot write a file at the destination root itself");
        }
        FileHandle directory = tree.directory(path.parent()).orElseThrow(() -> new MoverException(ErrorCode.NOT_FOUND,
                "cannot create " + tree.describe(path) + ": its folder does not exist"));
        String temporary = NfsTemporaries.name(jobKey);
        NfsClient.Lookup created = tree.client().create(directory, temporary, 0600, "create a temporary for " + tree.describe(path));
        openTemporaries.add(temporary);
        return new NfsSinkWriter(this, tree, directory, created.handle(), temporary, path, entry, size, COMMIT_WINDOW);
    }

    /**
     * SYMLINK under a temporary name beside the link, then RENAME over it: an existing file or link of that name is
     * replaced at once, as a file's commit does. The target is stored as it is and never followed.
     */
    @Override
    public void createSymbolicLink(RelativePath path, String target) {
        refuseReserved(path);
        if (path.isRoot()) {
            throw new MoverException(ErrorCode.INVALID_PATH, "cannot make the destination root itself a link");
        }
        FileHandle directory = tree.directory(path.parent()).orElseThrow(() -> new MoverException(ErrorCode.NOT_FOUND,
                "cannot create the link " + tree.describe(path) + ": its folder does not exist"));
        String temporary = NfsTemporaries.name(jobKey);
        String what = tree.describe(path);
        openTemporaries.add(temporary);
        try {
            tree.client().symlink(directory, temporary, target, "create the link " + what);
            int status = tree.client().rename(directory, temporary, directory, path.name());
            if (status == NfsStatus.NOENT && isLinkTo(directory, path, target)) {
                status = NfsStatus.OK;   // a retransmitted RENAME whose first send succeeded
            }
            if (status == NfsStatus.ISDIR || status == NfsStatus.EXIST || status == NfsStatus.NOTEMPTY) {
                throw new MoverException(ErrorCode.ALREADY_EXISTS, what + " is a directory; the link cannot replace it");
            }
            NfsStatus.check(status, "rename into place the link " + what);
        }
        catch (MoverException e) {
            tree.client().remove(directory, temporary, false);
            throw e;
        }
        finally {
            openTemporaries.remove(temporary);
        }
    }

    private boolean isLinkTo(FileHandle directory, RelativePath path, String target) {
        Optional<NfsClient.Lookup> landed = tree.client().lookup(directory, path.name(), "lookup " + tree.describe(path));
        return landed.isPresent() && landed.get().attributes().type() == io.mover.plugins.nfs.client.Fattr.SYMLINK
                && tree.client().readlink(landed.get().handle(), "read the link " + tree.describe(path)).equals(target);
    }

    void unstable(long delta) {
        unstableBytes.addAndGet(delta);
    }

    boolean overUnstableCap() {
        return unstableBytes.get() > UNSTABLE_CAP;
    }

    void resent() {
        resentWrites.increment();
    }

    @Override
    public java.util.Map<String, Long> counters() {
        // plus unstable WRITEs sent again because a COMMIT's verifier showed the server had restarted
        java.util.Map<String, Long> counters = tree.session().counters();
        counters.put("nfs.resent-unstable-writes", resentWrites.sum());
        return counters;
    }

    void closed(NfsSinkWriter writer) {
        openTemporaries.remove(writer.temporary());
    }

    @Override
    public void delete(RelativePath path, boolean recursive) {
        if (path.isRoot()) {
            throw new MoverException(ErrorCode.INVALID_PATH, "refusing to delete the destination root");
        }
        Optional<FileHandle> parent;
        try {
            parent = tree.directory(path.parent());
        }
        catch (MoverException e) {
            if (e.code() == ErrorCode.NOT_A_DIRECTORY) {
                return;
            }
            throw e;
        }
        if (parent.isEmpty()) {
            return;
        }
        Optional<NfsClient.Lookup> found = tree.resolve(path);
        if (found.isEmpty()) {
            return;
        }
        boolean isDirectory = found.get().attributes().isDirectory();
        if (isDirectory && recursive) {
            for (NfsClient.DirEntry child : tree.listRaw(path)) {
                delete(path.resolve(child.name()), true);
            }
        }
        int status = tree.client().remove(parent.get(), path.name(), isDirectory);
        if (isDirectory) {
            tree.forget(path);
        }
        if (status != NfsStatus.OK && status != NfsStatus.NOENT) {
            throw NfsStatus.error(status, "delete " + tree.describe(path));
        }
    }

    @Override
    public void setAttributes(RelativePath path, Entry entry) {
        NfsClient.Lookup found = tree.resolve(path).orElseThrow(() -> new MoverException(ErrorCode.NOT_FOUND,
                "cannot set attributes of " + tree.describe(path) + ": it does not exist"));
        OptionalInt mode = entry.attributes().posixMode();
        tree.client().setattr(found.handle(), mode, Optional.of(entry.lastModified()), "set attributes of " + tree.describe(path));
    }

    @Override
    public int removeStaleTemporaries(RelativePath directory) {
        List<NfsClient.DirEntry> entries;
        try {
            entries = tree.listRaw(directory);
        }
        catch (MoverException e) {
            if (e.code() == ErrorCode.NOT_FOUND) {
                return 0;
            }
            throw e;
        }
        FileHandle handle = tree.directory(directory).orElseThrow();
        int removed = 0;
        for (NfsClient.DirEntry entry : entries) {
            if (NfsTemporaries.belongsTo(entry.name(), jobKey) && !openTemporaries.contains(entry.name())) {
                int status = tree.client().remove(handle, entry.name(), false);
                removed += status == NfsStatus.OK ? 1 : 0;
            }
        }
        return removed;
    }

    private static void refuseReserved(RelativePath path) {
        for (String segment : path.segments()) {
            if (NfsTemporaries.isTemporary(segment)) {
                throw new MoverException(ErrorCode.INVALID_PATH, "'" + segment + "' has the form of mover's temporary names (.mover.<job>.<hex>); rename it");
            }
        }
    }

    @Override
    public void close() {
        tree.session().close();
    }
}
