package io.mover.plugins.azurefiles.fileservice;

import java.io.IOException;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.time.Instant;
import java.util.UUID;

import io.mover.plugins.azurefiles.fileservice.FileTree.Node;
import io.mover.plugins.azurefiles.fileservice.FileTree.Share;

/**
 * Rename File and Copy File (which completes synchronously, as the service does for small files, reporting
 * {@code x-ms-copy-status: success}), and the resolution of a copy source URL with its own authorization.
 */
final class Transfers {
    private final FileTree tree;
    private final Signatures signatures;

    Transfers(FileTree tree, Signatures signatures) {
        this.tree = tree;
        this.signatures = signatures;
    }

    /** Rename File: moves {@code x-ms-file-rename-source} (a URL or path in the same share) to the request's path. */
    Response rename(Request request, Share share) {
        String source = request.header("x-ms-file-rename-source");
        if (source == null) {
            throw ServiceError.missingHeader("x-ms-file-rename-source");
        }
        String sourcePath = sharePath(request, URI.create(source.replace(" ", "%20")).getRawPath());
        boolean replace = "true".equalsIgnoreCase(request.header("x-ms-file-rename-replace-if-exists"));
        Instant now = Instant.now();
        synchronized (share.lock) {
            Node moving = FileOperations.existingFile(share, sourcePath);
            Node parent = Operations.parentOf(share, request.path());
            String name = Operations.checkName(request.path());
            Node existing = FileTree.find(share, request.path());
            if (existing != null && existing != moving) {
                if (existing.directory) {
                    throw ServiceError.conflict("ResourceTypeMismatch");
                }
                if (!replace) {
                    throw ServiceError.conflict("ResourceAlreadyExists");
                }
                parent.children.remove(existing.name);
                FileTree.closeData(existing);
            }
            moving.parent.children.remove(moving.name);
            moving.parent = parent;
            moving.name = name;
            parent.children.put(name, moving);
            Smb.apply(request, moving, now, false);
            moving.touch(now);
            return Smb.describe(Response.of(200), moving);
        }
    }

    /** Copy File: the service reads the source itself (same account, or any account through a SAS in the URL). */
    Response copy(Request request, Share share) throws IOException {
        Node source = copySource(request);
        FileOperations.refuseDiscarded(source);
        Instant now = Instant.now();
        Node file;
        synchronized (share.lock) {
            Node parent = Operations.parentOf(share, request.path());
            String name = Operations.checkName(request.path());
            Node existing = FileTree.find(share, request.path());
            if (existing != null && existing.directory) {
                throw ServiceError.conflict("ResourceAlreadyExists");
            }
            file = tree.newFile(share, parent, name, source.size, now);
            copySmb(request, source, file, now);
            if (existing != null) {
                parent.children.remove(existing.name);
                FileTree.closeData(existing);
            }
            parent.children.put(name, file);
        }
        if (source.size > 0 && source.channel != null) {
            FileChannel to = tree.channel(file);
            for (long done = 0; done < source.size; ) {
                done += source.channel.transferTo(done, source.size - done, to.position(done));
            }
        }
        return Response.of(202).with("ETag", file.etag).with("x-ms-copy-id", UUID.randomUUID().toString()).with("x-ms-copy-status", "success")
                .with("Last-Modified", FileServiceDouble.httpDate(file.lastModified));
    }

    private static void copySmb(Request request, Node source, Node file, Instant now) {
        boolean sourcePermission = "source".equalsIgnoreCase(request.header("x-ms-file-permission-copy-mode"));
        String attributes = request.header("x-ms-file-attributes");
        file.attributes = attributes == null || attributes.equalsIgnoreCase("source") ? source.attributes : Smb.attributes(attributes, false);
        file.creationTime = copyTime(request.header("x-ms-file-creation-time"), source.creationTime, now);
        file.lastWriteTime = copyTime(request.header("x-ms-file-last-write-time"), source.lastWriteTime, now);
        file.changeTime = copyTime(request.header("x-ms-file-change-time"), source.changeTime, now);
        if (sourcePermission) {
            file.permissionKey = file.share.permissionKey(source.share.permissions.get(source.permissionKey));
        }
        else if (request.header("x-ms-file-permission") != null && !request.header("x-ms-file-permission").equalsIgnoreCase("inherit")) {
            file.permissionKey = file.share.permissionKey(request.header("x-ms-file-permission"));
        }
        else {
            file.permissionKey = file.parent.permissionKey;
        }
    }

    private static Instant copyTime(String header, Instant source, Instant now) {
        if (header == null || header.equalsIgnoreCase("source")) {
            return source;
        }
        return header.equalsIgnoreCase("now") ? now : Instant.parse(header);
    }

    /** The file an {@code x-ms-copy-source} URL names, after checking that this request may read it. */
    Node copySource(Request request) {
        URI uri = URI.create(request.header("x-ms-copy-source"));
        // the SDK percent-encodes the slashes of a copy source's path, as of a rename source
        String[] parts = java.net.URLDecoder.decode(uri.getRawPath().replace("+", "%2B"), java.nio.charset.StandardCharsets.UTF_8).substring(1).split("/", 3);
        String account = parts[0];
        String shareName = parts.length > 1 ? parts[1] : "";
        String path = sharePath(request, uri.getRawPath());
        var query = Request.parseQuery(uri.getRawQuery());
        try {
            if (query.containsKey("sig")) {
                signatures.sas(account, shareName, path, query, "https".equals(uri.getScheme()), "r", Instant.now());
            }
            else if (!account.equals(request.account()) || request.header("authorization") == null) {
                throw new ServiceError(403, "CannotVerifyCopySource", "This request is not authorized to perform this operation.");
            }
        }
        catch (ServiceError e) {
            throw e.code.equals("CannotVerifyCopySource") ? e : new ServiceError(403, "CannotVerifyCopySource", e.getMessage());
        }
        Share from = tree.share(account, shareName);
        if (from == null) {
            throw new ServiceError(404, "CannotVerifyCopySource", "The specified share does not exist.");
        }
        synchronized (from.lock) {
            Node node = FileTree.find(from, path);
            if (node == null || node.directory) {
                throw new ServiceError(404, "CannotVerifyCopySource", "The specified resource does not exist.");
            }
            return node;
        }
    }

    /** The path inside the share of a raw {@code /ACCOUNT/SHARE/PATH}; the SDK percent-encodes the slashes of a rename source. */
    private static String sharePath(Request request, String rawPath) {
        String decoded = java.net.URLDecoder.decode(rawPath.replace("+", "%2B"), java.nio.charset.StandardCharsets.UTF_8);
        String[] parts = decoded.substring(1).split("/", 3);
        StringBuilder path = new StringBuilder();
        if (parts.length > 2) {
            for (String segment : parts[2].split("/")) {
                if (!segment.isEmpty()) {
                    path.append(path.isEmpty() ? "" : "/").append(segment);
                }
            }
        }
        return path.toString();
    }
}
