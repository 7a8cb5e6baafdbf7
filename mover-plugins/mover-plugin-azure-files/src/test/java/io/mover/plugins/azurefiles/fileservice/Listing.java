package io.mover.plugins.azurefiles.fileservice;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import io.mover.plugins.azurefiles.fileservice.FileTree.Node;
import io.mover.plugins.azurefiles.fileservice.FileTree.Share;

/** List Directories and Files, with its include options and extended info. */
final class Listing {
    private static final Set<String> INCLUDES = Set.of("timestamps", "etag", "attributes", "permissionkey");

    private Listing() {}

    /** List Directories and Files: one page of a directory, with the properties its include options ask for. */
    static Response list(Request request, Share share, String endpoint) {
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
                .append(Xml.escape(endpoint)).append("/\" ShareName=\"").append(Xml.escape(share.name))
                .append("\" DirectoryPath=\"").append(Xml.escape(request.path())).append("\">");
        element(xml, "Marker", marker);
        element(xml, "Prefix", request.q("prefix"));
        element(xml, "MaxResults", request.q("maxresults"));
        String next = null;
        synchronized (share.lock) {
            Node directory = FileTree.find(share, request.path());
            if (directory == null || !directory.directory) {
                throw ServiceError.notFound(directory == null && Operations.parentMissing(share, request.path()) ? "ParentNotFound" : "ResourceNotFound");
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
            element(xml, "Last-Modified", FileServiceDouble.httpDate(node.lastModified));
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
}
