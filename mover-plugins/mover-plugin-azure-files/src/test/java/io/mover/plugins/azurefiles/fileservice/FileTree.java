package io.mover.plugins.azurefiles.fileservice;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The namespace of the double: accounts, shares, and per share a tree of directories and files. Names are
 * case-preserving and case-insensitive, as on Azure Files. File content lives in sparse files under a
 * scratch directory, so a 4 TiB "Create File" costs nothing and a 10 GiB benchmark does not fill the heap.
 * <p>Namespace changes take the share's lock; content reads and writes go straight to the file's channel
 * (positional I/O is thread-safe), as ranges of one file are written in parallel.
 */
final class FileTree {
    static final String DEFAULT_SDDL = "O:BAG:SYD:(A;;FA;;;BA)(A;;FA;;;SY)(A;;0x1200a9;;;BU)";
    private static final AtomicLong IDS = new AtomicLong(0x4000_0000_0000_0000L);
    private static final AtomicLong ETAGS = new AtomicLong(0x8DC0000000000000L);

    private final Path dataDirectory;
    /**
     * Whether Put Range bodies are stored (the default). A benchmark of uploads may turn it off: the service stores
     * bytes on its own machines, not on the client's cores that the double shares; reads of such files are refused.
     */
    volatile boolean keepContent = true;
    private final Map<String, Share> shares = new ConcurrentHashMap<>();

    FileTree(Path dataDirectory) {
        this.dataDirectory = dataDirectory;
    }

    /** A share, with its permission store (SDDL by key, as Create Permission returns keys) and its quota. */
    static final class Share {
        final String account;
        final String name;
        final Node root;
        final Map<String, String> permissions = new ConcurrentHashMap<>();
        final Object lock = new Object();
        /** The share's maximum size in GiB ({@code x-ms-share-quota}); reported, not enforced (see the README). */
        volatile int quotaGiB = ShareOperations.DEFAULT_QUOTA_GIB;

        Share(String account, String name) {
            this.account = account;
            this.name = name;
            this.root = new Node(this, null, "", true, Instant.now());
            this.root.permissionKey = permissionKey(DEFAULT_SDDL);
        }

        String permissionKey(String sddl) {
            String key = Long.toUnsignedString(sddl.hashCode() & 0xffffffffL) + "*" + Long.toUnsignedString(Math.abs((long) sddl.hashCode() * 31 + 7));
            permissions.putIfAbsent(key, sddl);
            return key;
        }
    }

    /** A directory or a file and its SMB properties. Mutable under the share's lock. */
    static final class Node {
        final Share share;
        final boolean directory;
        final TreeMap<String, Node> children = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        final long id = IDS.incrementAndGet();
        Node parent;
        String name;
        String attributes;
        Instant creationTime;
        Instant lastWriteTime;
        Instant changeTime;
        Instant lastModified;
        String etag;
        String permissionKey;
        String contentType = "application/octet-stream";
        long size;
        Path data;
        FileChannel channel;
        /** Written while the double kept no content: reads of it are refused. */
        volatile boolean contentDiscarded;

        Node(Share share, Node parent, String name, boolean directory, Instant now) {
            this.share = share;
            this.parent = parent;
            this.name = name;
            this.directory = directory;
            this.attributes = directory ? "Directory" : "Archive";
            this.creationTime = now;
            this.lastWriteTime = now;
            this.changeTime = now;
            touch(now);
        }

        void touch(Instant now) {
            lastModified = now;
            etag = "\"0x" + Long.toHexString(ETAGS.incrementAndGet()).toUpperCase(java.util.Locale.ROOT) + "\"";
        }

        String path() {
            return parent == null ? "" : parent.parent == null ? name : parent.path() + "/" + name;
        }
    }

    Share createShare(String account, String name) {
        Share share = new Share(account, name);
        return shares.putIfAbsent(account + "/" + name.toLowerCase(java.util.Locale.ROOT), share) == null ? share : null;
    }

    Share share(String account, String name) {
        return shares.get(account + "/" + name.toLowerCase(java.util.Locale.ROOT));
    }

    boolean deleteShare(String account, String name) {
        Share removed = shares.remove(account + "/" + name.toLowerCase(java.util.Locale.ROOT));
        if (removed != null) {
            synchronized (removed.lock) {
                walk(removed.root, node -> { if (!node.directory) { closeData(node); } });
            }
        }
        return removed != null;
    }

    /** Get Share Stats' ShareUsageBytes: the content lengths of the share's files (temporaries included). */
    long usageBytes(Share share) {
        long[] bytes = {0};
        synchronized (share.lock) {
            walk(share.root, node -> { if (!node.directory) { bytes[0] += node.size; } });
        }
        return bytes[0];
    }

    /** The node at {@code path} ("" is the root), or null. Call under the share's lock. */
    static Node find(Share share, String path) {
        Node node = share.root;
        if (path.isEmpty()) {
            return node;
        }
        for (String segment : path.split("/")) {
            if (!node.directory) {
                return null;
            }
            node = node.children.get(segment);
            if (node == null) {
                return null;
            }
        }
        return node;
    }

    /** A new file of {@code size} bytes; its sparse content file is made at the first write. Call under the share's lock. */
    Node newFile(Share share, Node parent, String name, long size, Instant now) {
        Node file = new Node(share, parent, name, false, now);
        file.size = size;
        return file;
    }

    /** The file's content channel, created on first use; bytes never written read as zeros. */
    FileChannel channel(Node file) throws IOException {
        synchronized (file) {
            if (file.channel == null) {
                Files.createDirectories(dataDirectory);
                file.data = Files.createTempFile(dataDirectory, "file-", ".bin");
                file.channel = FileChannel.open(file.data, StandardOpenOption.READ, StandardOpenOption.WRITE);
            }
            return file.channel;
        }
    }

    /** Sets the size; bytes past the old end read as zeros (Set File Properties with a new content length). */
    static void resize(Node file, long size) throws IOException {
        synchronized (file) {
            if (file.channel != null && size < file.channel.size()) {
                file.channel.truncate(size);
            }
            file.size = size;
        }
    }

    static void closeData(Node file) {
        try {
            synchronized (file) {
                if (file.channel == null) {
                    return;
                }
                file.channel.close();
                Files.deleteIfExists(file.data);
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void walk(Node node, java.util.function.Consumer<Node> action) {
        for (Node child : new ArrayList<>(node.children.values())) {
            walk(child, action);
        }
        action.accept(node);
    }

    /** Every path in a share under {@code prefix} (files and directories), for tests that look past the plugin. */
    List<String> names(String account, String shareName, String prefix) {
        Share share = share(account, shareName);
        List<String> names = new ArrayList<>();
        if (share == null) {
            return names;
        }
        synchronized (share.lock) {
            Node start = find(share, prefix);
            if (start != null && start.directory) {
                walk(start, node -> { if (node != start) { names.add(node.path().substring(prefix.isEmpty() ? 0 : prefix.length() + 1)); } });
            }
        }
        return names;
    }
}
