package io.mover.plugins.azurefiles.fileservice;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/** The SMB properties headers of Create/Set Properties ({@code x-ms-file-*}) and their echo in responses. */
final class Smb {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSS'Z'").withZone(ZoneOffset.UTC);
    private static final Set<String> ATTRIBUTES = Set.of("readonly", "hidden", "system", "none", "directory", "archive", "temporary",
            "offline", "notcontentindexed", "noscrubdata", "normal");

    private Smb() {}

    static String format(Instant time) {
        return TIME.format(time);
    }

    /** Applies the SMB headers of a create or set-properties request to {@code node}. Call under the share's lock. */
    static void apply(Request request, FileTree.Node node, Instant now, boolean creating) {
        String attributes = request.header("x-ms-file-attributes");
        if (attributes != null && !attributes.equalsIgnoreCase("preserve")) {
            node.attributes = attributes(attributes, node.directory);
        }
        node.creationTime = time(request, "x-ms-file-creation-time", node.creationTime, now);
        node.lastWriteTime = time(request, "x-ms-file-last-write-time", creating ? now : node.lastWriteTime, now);
        node.changeTime = time(request, "x-ms-file-change-time", now, now);
        String permission = request.header("x-ms-file-permission");
        String key = request.header("x-ms-file-permission-key");
        if (permission != null && key != null) {
            throw ServiceError.badHeader("x-ms-file-permission");   // the service takes one or the other
        }
        if (key != null) {
            if (!node.share.permissions.containsKey(key)) {
                throw ServiceError.badHeader("x-ms-file-permission-key");
            }
            node.permissionKey = key;
        }
        else if (permission != null && !permission.equalsIgnoreCase("preserve")) {
            node.permissionKey = permission.equalsIgnoreCase("inherit") ? inherited(node) : node.share.permissionKey(permission);
        }
        else if (node.permissionKey == null) {
            node.permissionKey = inherited(node);
        }
    }

    private static String inherited(FileTree.Node node) {
        return node.parent == null ? node.share.root.permissionKey : node.parent.permissionKey;
    }

    static String attributes(String header, boolean directory) {
        String[] parts = header.split("\\|");
        for (String part : parts) {
            if (!ATTRIBUTES.contains(part.trim().toLowerCase(Locale.ROOT))) {
                throw ServiceError.badHeader("x-ms-file-attributes");
            }
        }
        String joined = Arrays.stream(parts).map(String::trim).filter(p -> !p.equalsIgnoreCase("none") && !p.equalsIgnoreCase("directory"))
                .map(Smb::canonical).collect(Collectors.joining(" | "));
        if (directory) {
            return joined.isEmpty() ? "Directory" : joined + " | Directory";
        }
        return joined.isEmpty() ? "Normal" : joined;
    }

    private static String canonical(String name) {
        for (String known : new String[] {"ReadOnly", "Hidden", "System", "Archive", "Temporary", "Offline", "NotContentIndexed", "NoScrubData", "Normal"}) {
            if (known.equalsIgnoreCase(name)) {
                return known;
            }
        }
        return name;
    }

    private static Instant time(Request request, String header, Instant keep, Instant now) {
        String value = request.header(header);
        if (value == null || value.equalsIgnoreCase("preserve")) {
            return keep;
        }
        if (value.equalsIgnoreCase("now")) {
            return now;
        }
        try {
            return Instant.parse(value);
        }
        catch (DateTimeParseException e) {
            throw ServiceError.badHeader(header);
        }
    }

    /** The properties every file and directory response carries. */
    static Response describe(Response response, FileTree.Node node) {
        return response.with("ETag", node.etag)
                .with("Last-Modified", FileServiceDouble.httpDate(node.lastModified))
                .with("x-ms-file-attributes", node.attributes)
                .with("x-ms-file-creation-time", format(node.creationTime))
                .with("x-ms-file-last-write-time", format(node.lastWriteTime))
                .with("x-ms-file-change-time", format(node.changeTime))
                .with("x-ms-file-permission-key", node.permissionKey)
                .with("x-ms-file-id", Long.toUnsignedString(node.id))
                .with("x-ms-file-parent-id", node.parent == null ? "0" : Long.toUnsignedString(node.parent.id))
                .with("x-ms-request-server-encrypted", "true").with("x-ms-server-encrypted", "true");
    }
}
