package io.mover.plugins.azurefiles.fileservice;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.LongAdder;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A protocol-faithful test double of the Azure Files REST API (the File service), because Azurite has no File
 * service and no other emulator exists. It is a real HTTP server on loopback, driven by the real Azure SDK in
 * the tests; see {@code README.md} beside this class for what it covers and what it does not.
 * <p>Accounts have real keys: every request is authorized by Shared Key or a SAS exactly as the service checks it,
 * {@code x-ms-version} is required and checked, and errors carry the service's codes and XML bodies. {@link #faults()}
 * injects latency, a bandwidth limit, an operations-per-second limit (503 ServerBusy) and dropped connections.
 * <p>URLs are path-style: {@code http://127.0.0.1:PORT/ACCOUNT/SHARE/PATH}. {@code GET /_double/stats} (no
 * authorization, loopback only) returns request counts by operation, for benchmarks.
 */
public final class FileServiceDouble implements AutoCloseable {
    /**
     * The HTTP date the service sends (RFC 7231's IMF-fixdate, "Wed, 01 Jan 2025 00:00:00 GMT"): a two-digit day.
     * The JDK's RFC_1123_DATE_TIME writes "Wed, 1 Jan 2025", which the Azure SDK's DateTimeRfc1123 refuses (an
     * ERROR log line and no date for every listed entry from the 1st to the 9th of a month).
     */
    private static final DateTimeFormatter HTTP_DATE = DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", java.util.Locale.US)
            .withZone(ZoneOffset.UTC);

    private final HttpServer server;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final Map<String, byte[]> keys = new ConcurrentHashMap<>();
    private final FileTree tree;
    private final Faults faults = new Faults();
    private final Operations operations;
    private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();
    private final Path dataDirectory;

    private FileServiceDouble(Path dataDirectory) throws IOException {
        this.dataDirectory = dataDirectory;
        this.tree = new FileTree(dataDirectory);
        this.operations = new Operations(tree, new Signatures(keys), this::endpoint);
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256);
        server.createContext("/", this::handle);
        server.setExecutor(executor);
    }

    /** Starts a double on a free loopback port, keeping file content under a new directory in {@code scratch}. */
    public static FileServiceDouble start(Path scratch) throws IOException {
        FileServiceDouble service = new FileServiceDouble(Files.createTempDirectory(scratch, "file-service-"));
        service.server.start();
        return service;
    }

    /** Adds a storage account with a base64 key, as the portal shows it. */
    public FileServiceDouble account(String name, String base64Key) {
        keys.put(name, Base64.getDecoder().decode(base64Key));
        return this;
    }

    /** Creates a share directly (tests also create shares through the REST API). */
    public FileServiceDouble share(String account, String share) {
        tree.createShare(account, share);
        return this;
    }

    /**
     * Creates a share directly if it is missing, and gives it a quota of {@code quotaGiB} (as Create Share or Set
     * Share Properties with {@code x-ms-share-quota} do); Get Share Stats then reports usage against it.
     */
    public FileServiceDouble share(String account, String share, int quotaGiB) {
        tree.createShare(account, share);
        tree.share(account, share).quotaGiB = quotaGiB;
        return this;
    }

    public void deleteShare(String account, String share) {
        tree.deleteShare(account, share);
    }

    /** The endpoint of {@code account}: {@code http://127.0.0.1:PORT/ACCOUNT}. */
    public String endpoint(String account) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/" + account;
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /**
     * Whether Put Range bodies are stored (default true). Off, uploads are read and paced but not kept, and reading such
     * a file back answers 500: for upload benchmarks, where storing is the service's cost, not the client's.
     */
    public FileServiceDouble keepContent(boolean keep) {
        tree.keepContent = keep;
        return this;
    }

    /** {@code instant} as the service writes Last-Modified and Date. */
    static String httpDate(java.time.Instant instant) {
        return HTTP_DATE.format(instant);
    }

    public Faults faults() {
        return faults;
    }

    /** Requests served so far, by operation ({@code "PUT comp=range"}), including refused ones. */
    public Map<String, Long> counts() {
        Map<String, Long> copy = new TreeMap<>();
        counts.forEach((name, adder) -> copy.put(name, adder.sum()));
        return copy;
    }

    public long count(String operation) {
        LongAdder adder = counts.get(operation);
        return adder == null ? 0 : adder.sum();
    }

    public void resetCounts() {
        counts.clear();
    }

    /** Every path in a share below {@code prefix}, read past the REST API. */
    public List<String> names(String account, String share, String prefix) {
        return tree.names(account, share, prefix);
    }

    /** A file's bytes, read past the REST API; null if there is no such file. */
    public byte[] read(String account, String share, String path) throws IOException {
        return operations.readDirect(account, share, path);
    }

    /** Creates a file of {@code size} zero bytes (and its missing parents) past the REST API, for large benchmark trees. */
    public void seed(String account, String share, String path, long size, java.time.Instant lastWrite) {
        operations.seed(account, share, path, size, lastWrite);
    }

    /** Creates a file with {@code content} (and its missing parents) past the REST API. */
    public void put(String account, String share, String path, byte[] content, java.time.Instant lastWrite) throws IOException {
        operations.put(account, share, path, content, lastWrite);
    }

    /** A directory or file's SMB properties past the REST API: attributes, creation and last-write times, permission (SDDL). */
    public Map<String, String> smb(String account, String share, String path) {
        return operations.smbDirect(account, share, path);
    }

    /** Gives an existing directory or file other SMB attributes, creation time and permission (SDDL), past the REST API. */
    public void smb(String account, String share, String path, String attributes, java.time.Instant created, String sddl) {
        operations.smbDirect(account, share, path, attributes, created, sddl);
    }

    /** Removes a file past the REST API (a change made by someone else). */
    public void deleteFile(String account, String share, String path) {
        operations.deleteDirect(account, share, path);
    }

    /** Creates a directory and its missing parents past the REST API. */
    public void mkdir(String account, String share, String path, java.time.Instant lastWrite) {
        operations.mkdir(account, share, path, lastWrite);
    }

    private void handle(HttpExchange exchange) throws IOException {
        String requestId = UUID.randomUUID().toString();
        Response response;
        try (exchange) {
            if (exchange.getRequestURI().getRawPath().equals("/_double/stats")) {
                writeStats(exchange);
                return;
            }
            increment("all");
            if (faults.dropNow()) {
                increment("dropped");
                throw new IOException("injected fault: connection dropped");   // HttpServer closes the connection
            }
            faults.delay();
            try {
                Request request = Request.parse(exchange);
                increment(operationName(request));
                if (faults.serverBusy || !faults.admit()) {
                    increment("throttled");
                    throw new ServiceError(503, "ServerBusy", "Operations per second is over the account limit.");
                }
                checkVersion(request);
                response = operations.handle(request, faults);
            }
            catch (ServiceError e) {
                response = Response.error(e, requestId);
                if (e.status == 503 && faults.retryAfterSeconds >= 0) {
                    response.headers().put("Retry-After", Integer.toString(faults.retryAfterSeconds));
                }
            }
            catch (RuntimeException e) {
                response = Response.error(new ServiceError(500, "InternalError", "The server encountered an internal error: " + e), requestId);
            }
            write(exchange, response, requestId);
        }
    }

    private static String operationName(Request request) {
        String restype = request.q("restype");
        String comp = request.q("comp");
        return request.method() + (restype == null ? "" : " restype=" + restype) + (comp == null ? "" : " comp=" + comp)
                + (request.header("x-ms-copy-source") != null ? " copy" : "");
    }

    private void increment(String name) {
        counts.computeIfAbsent(name, n -> new LongAdder()).increment();
    }

    private static void checkVersion(Request request) {
        String version = request.header("x-ms-version");
        if (version == null) {
            if (request.header("authorization") != null) {
                throw ServiceError.missingHeader("x-ms-version");
            }
        }
        else if (!ApiVersions.known(version)) {
            throw ServiceError.badHeader("x-ms-version");
        }
    }

    private void write(HttpExchange exchange, Response response, String requestId) throws IOException {
        var headers = exchange.getResponseHeaders();
        response.headers().forEach(headers::set);
        headers.set("x-ms-request-id", requestId);
        headers.set("Date", HTTP_DATE.format(ZonedDateTime.now(ZoneOffset.UTC)));
        headers.set("Server", "Windows-Azure-File/1.0 Microsoft-HTTPAPI/2.0");
        String version = exchange.getRequestHeaders().getFirst("x-ms-version");
        if (version != null) {
            headers.set("x-ms-version", version);
        }
        if (exchange.getRequestMethod().equals("HEAD") || response.body() == null) {
            exchange.sendResponseHeaders(response.status(), -1);
            return;
        }
        exchange.sendResponseHeaders(response.status(), response.length() == 0 ? -1 : response.length());
        try (OutputStream out = exchange.getResponseBody()) {
            response.body().write(out, faults);
        }
    }

    private void writeStats(HttpExchange exchange) throws IOException {
        Map<String, Long> snapshot = new LinkedHashMap<>(counts());
        snapshot.putAll(faults.bandwidthUse());
        StringBuilder text = new StringBuilder();
        snapshot.forEach((name, value) -> text.append(name).append('\t').append(value).append('\n'));
        if (exchange.getRequestMethod().equals("DELETE")) {
            resetCounts();
        }
        byte[] bytes = text.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(200, bytes.length == 0 ? -1 : bytes.length);
        exchange.getResponseBody().write(bytes);
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
        try (var files = Files.walk(dataDirectory)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
        catch (IOException e) {
            // best effort: the directory is under the test's temporary directory
        }
    }
}
