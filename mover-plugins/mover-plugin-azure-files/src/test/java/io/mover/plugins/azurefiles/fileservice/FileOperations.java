package io.mover.plugins.azurefiles.fileservice;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.time.Instant;
import java.util.UUID;

import io.mover.plugins.azurefiles.fileservice.FileTree.Node;
import io.mover.plugins.azurefiles.fileservice.FileTree.Share;

/**
 * The file operations: Create File (with its size), Put Range (at most 4 MiB, or cleared), Put Range From URL,
 * Get File (whole or a range), Get/Set File Properties and Delete File; Rename File and Copy File are in
 * {@link Transfers}.
 */
final class FileOperations {
    static final long MAX_FILE_SIZE = 4L << 40;
    static final int MAX_RANGE = 4 << 20;

    private final FileTree tree;
    private final Transfers transfers;
    /** Put Range body arrays to reuse; as many as requests are usually in flight. */
    private final java.util.concurrent.ArrayBlockingQueue<byte[]> spare = new java.util.concurrent.ArrayBlockingQueue<>(64);

    FileOperations(FileTree tree, Signatures signatures) {
        this.tree = tree;
        this.transfers = new Transfers(tree, signatures);
    }

    Response handle(Request request, Share share, Faults faults) throws IOException {
        String comp = request.q("comp");
        switch (request.method() + " " + comp) {
            case "PUT null" -> {
                return request.header("x-ms-copy-source") != null ? transfers.copy(request, share) : create(request, share);
            }
            case "PUT range" -> {
                return putRange(request, share, faults);
            }
            case "PUT properties", "PUT metadata" -> {
                Instant now = Instant.now();
                synchronized (share.lock) {
                    Node file = existingFile(share, request.path());
                    if ("properties".equals(comp)) {
                        String length = request.header("x-ms-content-length");
                        if (length != null) {
                            FileTree.resize(file, size(length));
                        }
                        Smb.apply(request, file, now, false);
                        file.contentType = request.header("x-ms-content-type") == null ? file.contentType : request.header("x-ms-content-type");
                    }
                    file.touch(now);
                    return Smb.describe(Response.of(200), file);
                }
            }
            case "PUT rename" -> {
                return transfers.rename(request, share);
            }
            case "GET null" -> {
                return get(request, share);
            }
            case "HEAD null" -> {
                synchronized (share.lock) {
                    Node file = existingFile(share, request.path());
                    return Smb.describe(Response.of(200), file).with("Content-Length", Long.toString(file.size)).with("x-ms-type", "File")
                            .with("Content-Type", file.contentType).with("x-ms-copy-status", "success");
                }
            }
            case "DELETE null" -> {
                synchronized (share.lock) {
                    Node file = existingFile(share, request.path());
                    file.parent.children.remove(file.name);
                    FileTree.closeData(file);
                }
                return Response.of(202);
            }
            default -> throw new ServiceError(400, "InvalidQueryParameterValue", "Value for one of the query parameters specified in the request URI is invalid.", "comp");
        }
    }

    private Response create(Request request, Share share) {
        if (!"file".equalsIgnoreCase(request.header("x-ms-type"))) {
            throw request.header("x-ms-type") == null ? ServiceError.missingHeader("x-ms-type") : ServiceError.badHeader("x-ms-type");
        }
        String length = request.header("x-ms-content-length");
        if (length == null) {
            throw ServiceError.missingHeader("x-ms-content-length");
        }
        long size = size(length);
        Instant now = Instant.now();
        synchronized (share.lock) {
            Node parent = Operations.parentOf(share, request.path());
            Node existing = FileTree.find(share, request.path());
            if (existing != null && existing.directory) {
                throw ServiceError.conflict("ResourceAlreadyExists");
            }
            String name = Operations.checkName(request.path());
            Node file = tree.newFile(share, parent, name, size, now);
            Smb.apply(request, file, now, true);
            file.contentType = request.header("x-ms-content-type") == null ? file.contentType : request.header("x-ms-content-type");
            if (existing != null) {
                parent.children.remove(existing.name);
                FileTree.closeData(existing);
            }
            parent.children.put(name, file);
            return Smb.describe(Response.of(201), file);
        }
    }

    private Response putRange(Request request, Share share, Faults faults) throws IOException {
        long[] range = range(request.header("x-ms-range") != null ? request.header("x-ms-range") : request.header("range"), "x-ms-range");
        Node file;
        synchronized (share.lock) {
            file = existingFile(share, request.path());
        }
        long length = range[1] - range[0] + 1;
        if (range[1] >= file.size) {
            throw new ServiceError(416, "InvalidRange", "The range specified is invalid for the current size of the resource.");
        }
        String write = request.header("x-ms-write");
        if (write == null) {
            throw ServiceError.missingHeader("x-ms-write");
        }
        if (write.equalsIgnoreCase("clear")) {
            tree.channel(file).write(ByteBuffer.allocate((int) Math.min(length, MAX_RANGE)), range[0]);
        }
        else if (!write.equalsIgnoreCase("update")) {
            throw ServiceError.badHeader("x-ms-write");
        }
        else if (length > MAX_RANGE) {
            throw new ServiceError(413, "RequestBodyTooLarge", "The request body is too large and exceeds the maximum permissible limit.");
        }
        else if (request.header("x-ms-copy-source") != null) {
            long[] source = range(request.header("x-ms-source-range"), "x-ms-source-range");
            if (source[1] - source[0] != range[1] - range[0]) {
                throw ServiceError.badHeader("x-ms-source-range");
            }
            Node from = transfers.copySource(request);
            tree.channel(file).write(ByteBuffer.wrap(read(from, source[0], (int) length)), range[0]);
        }
        else {
            String contentLength = request.header("content-length");
            if (contentLength == null || Long.parseLong(contentLength) != length) {
                throw new ServiceError(400, "InvalidHeaderValue", "The value for one of the HTTP headers is not in the correct format.", "Content-Length");
            }
            byte[] body = spare.poll();
            body = body != null && body.length >= length ? body : new byte[(int) length];
            try {
                exactBody(request, body, (int) length);
                faults.transfer(length);
                if (tree.keepContent) {
                    tree.channel(file).write(ByteBuffer.wrap(body, 0, (int) length), range[0]);
                }
                else {
                    file.contentDiscarded = true;
                }
            }
            finally {
                spare.offer(body);
            }
        }
        synchronized (share.lock) {
            file.touch(Instant.now());
            return Response.of(201).with("ETag", file.etag).with("x-ms-request-server-encrypted", "true")
                    .with("Last-Modified", FileServiceDouble.httpDate(file.lastModified));
        }
    }

    private Response get(Request request, Share share) throws IOException {
        Node file;
        synchronized (share.lock) {
            file = existingFile(share, request.path());
        }
        refuseDiscarded(file);
        String header = request.header("x-ms-range") != null ? request.header("x-ms-range") : request.header("range");
        long start = 0;
        long end = file.size - 1;
        if (header != null) {
            long[] range = range(header, "x-ms-range");
            if (range[0] >= file.size) {
                throw new ServiceError(416, "InvalidRange", "The range specified is invalid for the current size of the resource.");
            }
            start = range[0];
            end = Math.min(range[1], file.size - 1);
        }
        long from = start;
        long length = end - start + 1;
        Response response = new Response(header == null ? 200 : 206, new java.util.LinkedHashMap<>(), length, (out, faults) -> {
            for (long done = 0; done < length; ) {
                int chunk = (int) Math.min(1 << 20, length - done);
                byte[] bytes = read(file, from + done, chunk);
                faults.transfer(chunk);
                out.write(bytes);
                done += chunk;
            }
        });
        Smb.describe(response, file).with("x-ms-type", "File").with("Content-Type", file.contentType).with("Accept-Ranges", "bytes");
        if (header != null) {
            response.with("Content-Range", "bytes " + start + "-" + end + "/" + file.size);
        }
        return response;
    }

    static byte[] read(Node file, long position, int length) throws IOException {
        refuseDiscarded(file);
        ByteBuffer bytes = ByteBuffer.allocate(length);
        FileChannel channel = file.channel;
        while (channel != null && bytes.hasRemaining() && channel.read(bytes, position + bytes.position()) > 0) {
            // bytes past the written end stay zero, as in a sparse Azure file
        }
        return bytes.array();
    }

    /** A file written while the double kept no content ({@code keepContent(false)}) cannot be read back. */
    static void refuseDiscarded(Node file) {
        if (file.contentDiscarded) {
            throw new ServiceError(500, "InternalError", "This double was told not to keep file content (--keep-content false); it cannot read "
                    + file.path() + " back.");
        }
    }

    static byte[] body(Request request, int limit) throws IOException {
        try (InputStream in = request.exchange().getRequestBody()) {
            byte[] bytes = in.readNBytes(limit + 1);
            if (bytes.length > limit) {
                throw new ServiceError(413, "RequestBodyTooLarge", "The request body is too large and exceeds the maximum permissible limit.");
            }
            return bytes;
        }
    }

    /**
     * A body whose Content-Length was checked already, read into one array of at least that size (a benchmark moves
     * gigabytes through here: reading up to a limit instead went through a list of small buffers and one more copy;
     * the arrays are reused, {@link #spare}, as a fresh 1 MiB array per request cost page faults and GC).
     */
    private static void exactBody(Request request, byte[] bytes, int length) throws IOException {
        try (InputStream in = request.exchange().getRequestBody()) {
            if (in.readNBytes(bytes, 0, length) != length) {
                throw new ServiceError(400, "InvalidHeaderValue", "The value for one of the HTTP headers is not in the correct format.", "Content-Length");
            }
        }
    }

    static Node existingFile(Share share, String path) {
        Node node = FileTree.find(share, path);
        if (node == null || node.directory) {
            throw ServiceError.notFound(node == null && FileTree.find(share, path.contains("/") ? path.substring(0, path.lastIndexOf('/')) : "") == null
                    ? "ParentNotFound" : "ResourceNotFound");
        }
        return node;
    }

    private static long size(String text) {
        try {
            long size = Long.parseLong(text);
            if (size < 0 || size > MAX_FILE_SIZE) {
                throw ServiceError.badHeader("x-ms-content-length");
            }
            return size;
        }
        catch (NumberFormatException e) {
            throw ServiceError.badHeader("x-ms-content-length");
        }
    }

    private static long[] range(String header, String name) {
        if (header == null || !header.startsWith("bytes=") || header.indexOf('-') < 0) {
            throw header == null ? ServiceError.missingHeader(name) : ServiceError.badHeader(name);
        }
        String[] parts = header.substring(6).split("-", 2);
        try {
            long start = Long.parseLong(parts[0].trim());
            long end = parts[1].isBlank() ? Long.MAX_VALUE - 1 : Long.parseLong(parts[1].trim());
            if (end < start) {
                throw ServiceError.badHeader(name);
            }
            return new long[] {start, end};
        }
        catch (NumberFormatException e) {
            throw ServiceError.badHeader(name);
        }
    }
}
