package io.mover.plugins.azurefiles.fileservice;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.mover.plugins.azurefiles.fileservice.FileTree.Share;

/**
 * The share operations ({@code restype=share}): Create Share (with {@code x-ms-share-quota}), Get Share Properties,
 * Set Share Properties (its quota), Get Share Stats, Delete Share, and Create / Get Permission.
 * <p>Quotas as the REST reference has them: {@code x-ms-share-quota} is the share's maximum size in GiB (Create
 * Share, Set Share Properties, returned by Get Share Properties); without it a share gets the service's default,
 * 5120 GiB (5 TiB) for a standard share, the largest a standard share may be unless large file shares are enabled
 * (then up to 102400, which the double accepts too). Get Share Stats answers
 * {@code <ShareStats><ShareUsageBytes>N</ShareUsageBytes></ShareStats>}; here N is the sum of the files' content
 * lengths (the service's figure is "approximate" and may lag recent writes).
 */
final class ShareOperations {
    static final int DEFAULT_QUOTA_GIB = 5120;
    static final int MAX_QUOTA_GIB = 102_400;
    private static final Pattern PERMISSION_JSON = Pattern.compile("\"permission\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");

    private final FileTree tree;
    private final Signatures signatures;

    ShareOperations(FileTree tree, Signatures signatures) {
        this.tree = tree;
        this.signatures = signatures;
    }

    Response handle(Request request) throws IOException {
        String comp = request.q("comp");
        signatures.authorize(request, request.method().equals("DELETE") ? "d" : request.method().equals("PUT") ? "cw" : "r");
        if (request.method().equals("PUT") && comp == null) {
            int quota = quota(request, DEFAULT_QUOTA_GIB);
            Share created = tree.createShare(request.account(), request.share());
            if (created == null) {
                throw ServiceError.conflict("ShareAlreadyExists");
            }
            created.quotaGiB = quota;
            return versioned(Response.of(201), created);
        }
        Share share = tree.share(request.account(), request.share());
        if (share == null) {
            throw ServiceError.notFound("ShareNotFound");
        }
        if ("filepermission".equals(comp)) {
            return permission(request, share);
        }
        if ("stats".equals(comp) && request.method().equals("GET")) {
            return Response.xml(200, "<?xml version=\"1.0\" encoding=\"utf-8\"?><ShareStats><ShareUsageBytes>" + tree.usageBytes(share)
                    + "</ShareUsageBytes></ShareStats>");
        }
        if ("properties".equals(comp) && request.method().equals("PUT")) {
            share.quotaGiB = quota(request, share.quotaGiB);
            share.root.touch(java.time.Instant.now());
            return versioned(Response.of(200), share);
        }
        if (request.method().equals("DELETE")) {
            tree.deleteShare(request.account(), request.share());
            return Response.of(202);
        }
        return versioned(Response.of(200), share).with("x-ms-share-quota", Integer.toString(share.quotaGiB));
    }

    /** ETag and Last-Modified, which Create Share, Set Share Properties and Get Share Properties all return. */
    private static Response versioned(Response response, Share share) {
        return response.with("ETag", share.root.etag)
                .with("Last-Modified", FileServiceDouble.httpDate(share.root.lastModified));
    }

    /** {@code x-ms-share-quota} in GiB, 1 to 102400; {@code otherwise} when the header is absent. */
    private static int quota(Request request, int otherwise) {
        String header = request.header("x-ms-share-quota");
        if (header == null) {
            return otherwise;
        }
        try {
            int quota = Integer.parseInt(header.trim());
            if (quota < 1 || quota > MAX_QUOTA_GIB) {
                throw ServiceError.badHeader("x-ms-share-quota");
            }
            return quota;
        }
        catch (NumberFormatException e) {
            throw ServiceError.badHeader("x-ms-share-quota");
        }
    }

    private static Response permission(Request request, Share share) throws IOException {
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
}
