package io.mover.plugins.azurefiles.fileservice;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.mover.plugins.azurefiles.fileservice.FileTree.Node;
import io.mover.plugins.azurefiles.fileservice.FileTree.Share;

/**
 * Dispatches a request to its operation (by method, {@code restype} and {@code comp}, as the service does) and
 * implements the share, permission, directory and listing operations; file operations are in {@link FileOperations}.
 * Authorization comes first, then existence checks, as on the service.
 */
final class Operations {
    private static final Set<String> INCLUDES = Set.of("timestamps", "etag", "attributes", "permissionkey");
    private static final Pattern PERMISSION_JSON = Pattern.compile("\"permission\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final Pattern FORBIDDEN = Pattern.compile("[\"\\\\/:|<>*?\\x00-\\x1f]");

    private final FileTree tree;
    private final Signatures signatures;
    private final Function<String, String> endpoints;
    private final FileOperations files;

    Operations(FileTree tree, Signatures signatures, Function<String, String> endpoints) {
        this.tree = tree;
        this.signatures = signatures;
        this.endpoints = endpoints;
        this.files = new FileOperations(tree, signatures);
    }

    Response handle(Request request, Faults faults) throws IOException {
        if (request.share() == null) {
            signatures.authorize(request, "r");
            throw new ServiceError(400, "InvalidQueryParameterValue", "Value for one of the query parameters specified in the request URI is invalid.", "comp");
        }
        if ("share".equals(request.q("restype"))) {
            return share(request);
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
            return "list".equals(comp) ? list(request, share) : directory(request, share, comp);
        }
        return files.handle(request, share, faults);
    }

    private Response share(Request request) throws IOException {
        String comp = request.q("comp");
        signatures.authorize(request, request.method().equals("DELETE") ? "d" : request.method().equals("PUT") ? "cw" : "r");
        if (request.method().equals("PUT") && comp == null) {
            if (tree.createShare(request.account(), request.share()) == null) {
                throw ServiceError.conflict("ShareAlreadyExists");
            }
            return Response.of(201);
        }
        Share share = tree.share(request.account(), request.share());
        if (share == null) {
            throw ServiceError.notFound("ShareNotFound");
        }
        if ("filepermission".equals(comp)) {
            if (request.method().equals("PUT")) {
                String body = new String(FileOperations.body(request, 64 * 1024), StandardCharsets.UTF_8);
                Matcher matcher = PERMISSION_JSON.matcher(body);
                if (!matcher.find()) {
                    throw new ServiceError(400, "InvalidXmlDocument", "The permission in the request body is not valid.");
                }
                return Response.of(201).with("x-ms-file-permission-key", share.permissionKey(matcher.group(1).replace("\\\"", "\"")));
            }
            String sddl = share.permissions.get(String.valueOf(request.header("x-ms-file-permission-key")));
            if (sddl == null) {
                throw ServiceError.notFound("ResourceNotFound");
            }
            byte[] json = ("{\"permission\":\"" + sddl + "\",\"format\":\"sddl\"}").getBytes(StandardCharsets.UTF_8);
            return new Response(200, new java.util.LinkedHashMap<>(java.util.Map.of("Content-Type", "application/json")), json.length,
                    (out, faults) -> out.write(json));
        }
        if (request.method().equals("DELETE")) {
            tree.deleteShare(request.account(), request.share());
            return Response.of(202);
        }
        return Response.of(200).with("ETag", share.root.etag).with("x-ms-share-quota", "102400")
                .with("Last-Modified", DateTimeFormatter.RFC_1123_DATE_TIME.format(share.root.lastModified.atZone(ZoneOffset.UTC)));
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

    /** List Directories and Files: one page of a directory, with the properties its include options ask for. */
    private Response list(Request request, Share share) {
        List<String> include = new ArrayList<>();
        if (request.q("include") != null && !request.q("include").isEmpty()) {
            for (String option : request.q("include").split(",")) {
                if (!INCLUDES.contains(option.trim().toLowerCase(java.util.Locale.ROOT))) {
                    throw new ServiceError(400, "InvalidQueryParameterValue", "Value for one of the query parameters specified in the request URI is invalid.", "include");
                }
                include.add(option.trim().toLowerCase(java.util.Locale.ROOT));
            }
        }
        int max = request.q("maxresults") == null ? 5000 : Integer.parseInt(request.q("maxresults"));
        if (max < 1 || max > 5000) {
            throw new ServiceError(400, "OutOfRangeQueryParameterValue", "One of the query parameters specified in the request URI is outside the permissible range.", "maxresults");
        }
        boolean extended = "true".equalsIgnoreCase(request.header("x-ms-file-extended-info"));
        String prefix = request.q("prefix") == null ? "" : request.q("prefix");
        String marker = request.q("marker");
        StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"utf-8\"?><EnumerationResults ServiceEndpoint=\"")
                .append(Xml.escape(endpoints.apply(request.account()))).append("/\" ShareName=\"").append(Xml.escape(share.name))
                .append("\" DirectoryPath=\"").append(Xml.escape(request.path())).append("\">");
        element(xml, "Marker", marker);
        element(xml, "Prefix", request.q("prefix"));
        element(xml, "MaxResults", request.q("maxresults"));
        String next = null;
        synchronized (share.lock) {
            Node directory = FileTree.find(share, request.path());
            if (directory == null || !directory.directory) {
                throw ServiceError.notFound(directory == null && parentMissing(share, request.path()) ? "ParentNotFound" : "ResourceNotFound");
            }
            if (extended) {
                element(xml, "DirectoryId", Long.toUnsignedString(directory.id));
            }
            xml.append("<Entries>");
            var children = marker == null ? directory.children.values() : directory.children.tailMap(marker, true).values();
            int count = 0;
            for (Node child : children) {
                if (!child.name.startsWith(prefix)) {
                    continue;
                }
                if (count++ == max) {
                    next = child.name;
                    break;
                }
                entry(xml, child, include, extended);
            }
        }
        xml.append("</Entries>");
        element(xml, "NextMarker", next == null ? "" : next);
        xml.append("</EnumerationResults>");
        return Response.xml(200, xml.toString());
    }

    private static void entry(StringBuilder xml, Node node, List<String> include, boolean extended) {
        String tag = node.directory ? "Directory" : "File";
        xml.append('<').append(tag).append('>');
        element(xml, "Name", node.name);
        if (extended) {
            element(xml, "FileId", Long.toUnsignedString(node.id));
        }
        xml.append("<Properties>");
        if (!node.directory) {
            element(xml, "Content-Length", Long.toString(node.size));
        }
        if (include.contains("timestamps")) {
            element(xml, "CreationTime", Smb.format(node.creationTime));
            element(xml, "LastAccessTime", Smb.format(node.lastWriteTime));
            element(xml, "LastWriteTime", Smb.format(node.lastWriteTime));
            element(xml, "ChangeTime", Smb.format(node.changeTime));
            element(xml, "Last-Modified", DateTimeFormatter.RFC_1123_DATE_TIME.format(node.lastModified.atZone(ZoneOffset.UTC)));
        }
        if (include.contains("etag")) {
            element(xml, "Etag", node.etag);
        }
        xml.append("</Properties>");
        if (include.contains("attributes")) {
            element(xml, "Attributes", node.attributes);
        }
        if (include.contains("permissionkey")) {
            element(xml, "PermissionKey", node.permissionKey);
        }
        xml.append("</").append(tag).append('>');
    }

    private static void element(StringBuilder xml, String name, String value) {
        if (value != null) {
            xml.append('<').append(name).append('>').append(Xml.escape(value)).append("</").append(name).append('>');
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

    private static boolean parentMissing(Share share, String path) {
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
