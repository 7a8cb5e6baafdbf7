package io.mover.plugins.azurefiles.fileservice;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

import io.mover.plugins.azurefiles.fileservice.FileTree.Node;
import io.mover.plugins.azurefiles.fileservice.FileTree.Share;

/**
 * Dispatches a request to its operation (by method, {@code restype} and {@code comp}, as the service does) and
 * implements the share, permission and directory operations; the listing is in {@link Listing}, file operations in
 * {@link FileOperations}.
 * Authorization comes first, then existence checks, as on the service.
 */
final class Operations {
    private static final Set<String> INCLUDES = Set.of("timestamps", "etag", "attributes", "permissionkey");
    private static final Pattern FORBIDDEN = Pattern.compile("[\"\\\\/:|<>*?\\x00-\\x1f]");

    private final FileTree tree;
    private final Signatures signatures;
    private final Function<String, String> endpoints;
    private final FileOperations files;
    private final ShareOperations shares;

    Operations(FileTree tree, Signatures signatures, Function<String, String> endpoints) {
        this.tree = tree;
        this.signatures = signatures;
        this.endpoints = endpoints;
        this.files = new FileOperations(tree, signatures);
        this.shares = new ShareOperations(tree, signatures);
    }

    Response handle(Request request, Faults faults) throws IOException {
        if (request.share() == null) {
            signatures.authorize(request, "r");
            throw new ServiceError(400, "InvalidQueryParameterValue", "Value for one of the query parameters specified in the request URI is invalid.", "comp");
        }
        if ("share".equals(request.q("restype"))) {
            return shares.handle(request);
        }
        boolean directory = "directory".equals(request.q("restype"));
        String comp = request.q("comp");
        String needed = switch (request.method()) {
            case "GET", "HEAD" -> "list".equals(comp) ? "l" : "r";
            case "DELETE" -> "d";
            default -> comp == null && !directory && request.header("x-ms-copy-source") == null ? "cw" : directory && comp == null ? "cw" : "w";
        };
        signatures.authorize(request, needed);
        Share share = tree.share(request.account(), request.share());
        if (share == null) {
            throw ServiceError.notFound("ShareNotFound");
        }
        if (directory) {
            return "list".equals(comp) ? Listing.list(request, share, endpoints.apply(request.account())) : directory(request, share, comp);
        }
        return files.handle(request, share, faults);
    }

    private Response directory(Request request, Share share, String comp) {
        Instant now = Instant.now();
        synchronized (share.lock) {
            Node node = FileTree.find(share, request.path());
            switch (request.method() + " " + comp) {
                case "PUT null" -> {
                    Node parent = parentOf(share, request.path());
                    if (node != null) {
                        throw ServiceError.conflict(node.directory ? "ResourceAlreadyExists" : "ResourceTypeMismatch");
                    }
                    String name = checkName(request.path());
                    Node created = new Node(share, parent, name, true, now);
                    Smb.apply(request, created, now, true);
                    parent.children.put(name, created);
                    parent.touch(now);
                    return Smb.describe(Response.of(201), created);
                }
                case "PUT properties" -> {
                    Smb.apply(request, existingDirectory(node), now, false);
                    node.touch(now);
                    return Smb.describe(Response.of(200), node);
                }
                case "PUT metadata" -> {
                    existingDirectory(node).touch(now);
                    return Smb.describe(Response.of(200), node);
                }
                case "GET null", "HEAD null" -> {
                    return Smb.describe(Response.of(200), existingDirectory(node));
                }
                case "DELETE null" -> {
                    if (existingDirectory(node).parent == null) {
                        throw new ServiceError(400, "InvalidUri", "The requested URI does not represent any resource on the server.");
                    }
                    if (!node.children.isEmpty()) {
                        throw ServiceError.conflict("DirectoryNotEmpty");
                    }
                    node.parent.children.remove(node.name);
                    return Response.of(202);
                }
                default -> throw new ServiceError(400, "InvalidQueryParameterValue",
                        "Value for one of the query parameters specified in the request URI is invalid.", "comp");
            }
        }
    }

    static Node existingDirectory(Node node) {
        if (node == null || !node.directory) {
            throw ServiceError.notFound("ResourceNotFound");
        }
        return node;
    }

    /** The existing parent directory of {@code path}, or the service's ParentNotFound. Call under the share's lock. */
    static Node parentOf(Share share, String path) {
        int slash = path.lastIndexOf('/');
        Node parent = FileTree.find(share, slash < 0 ? "" : path.substring(0, slash));
        if (parent == null || !parent.directory) {
            throw ServiceError.notFound("ParentNotFound");
        }
        return parent;
    }

    static boolean parentMissing(Share share, String path) {
        int slash = path.lastIndexOf('/');
        Node parent = FileTree.find(share, slash < 0 ? "" : path.substring(0, slash));
        return parent == null || !parent.directory;
    }

    /** The last segment of {@code path}, if Azure Files allows it as a name (no {@code " \ / : | < > * ?}, no control characters). */
    static String checkName(String path) {
        String name = path.substring(path.lastIndexOf('/') + 1);
        if (name.isEmpty() || name.length() > 255 || FORBIDDEN.matcher(name).find() || name.endsWith(".") || path.length() > 2048) {
            throw new ServiceError(400, "InvalidResourceName", "The specifed resource name contains invalid characters.");
        }
        return name;
    }

    byte[] readDirect(String account, String shareName, String path) throws IOException {
        Share share = tree.share(account, shareName);
        Node node;
        synchronized (share.lock) {
            node = FileTree.find(share, path);
        }
        if (node == null || node.directory) {
            return null;
        }
        return FileOperations.read(node, 0, (int) node.size);
    }

    void put(String account, String shareName, String path, byte[] content, Instant lastWrite) throws IOException {
        seed(account, shareName, path, content.length, lastWrite);
        Share share = tree.share(account, shareName);
        Node file;
        synchronized (share.lock) {
            file = FileTree.find(share, path);
        }
        tree.channel(file).write(java.nio.ByteBuffer.wrap(content), 0);
    }

    java.util.Map<String, String> smbDirect(String account, String shareName, String path) {
        Share share = tree.share(account, shareName);
        synchronized (share.lock) {
            Node node = FileTree.find(share, path);
            if (node == null) {
                return java.util.Map.of();
            }
            return java.util.Map.of("attributes", node.attributes, "creationTime", node.creationTime.toString(), "lastWriteTime",
                    node.lastWriteTime.toString(), "permission", share.permissions.get(node.permissionKey));
        }
    }

    void smbDirect(String account, String shareName, String path, String attributes, Instant created, String sddl) {
        Share share = tree.share(account, shareName);
        synchronized (share.lock) {
            Node node = FileTree.find(share, path);
            node.attributes = Smb.attributes(attributes, node.directory);
            node.creationTime = created;
            node.permissionKey = share.permissionKey(sddl);
        }
    }

    void deleteDirect(String account, String shareName, String path) {
        Share share = tree.share(account, shareName);
        synchronized (share.lock) {
            Node node = FileTree.find(share, path);
            if (node != null && !node.directory) {
                node.parent.children.remove(node.name);
                FileTree.closeData(node);
            }
        }
    }

    void mkdir(String account, String shareName, String path, Instant lastWrite) {
        Share share = tree.share(account, shareName);
        synchronized (share.lock) {
            Node parent = share.root;
            for (String name : path.split("/")) {
                Node current = parent;
                parent = current.children.computeIfAbsent(name, n -> new Node(share, current, n, true, lastWrite));
                parent.permissionKey = share.root.permissionKey;
            }
        }
    }

    void seed(String account, String shareName, String path, long size, Instant lastWrite) {
        Share share = tree.share(account, shareName);
        synchronized (share.lock) {
            Node parent = share.root;
            String[] segments = path.split("/");
            for (int i = 0; i < segments.length - 1; i++) {
                Node current = parent;
                String name = segments[i];
                parent = current.children.computeIfAbsent(name, n -> new Node(share, current, n, true, lastWrite));
                parent.permissionKey = share.root.permissionKey;
            }
            Node file = tree.newFile(share, parent, segments[segments.length - 1], size, lastWrite);
            file.permissionKey = share.root.permissionKey;
            parent.children.put(file.name, file);
        }
    }
}
