package io.mover.plugins.azurefiles;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.stream.Stream;

import com.azure.core.http.HttpClient;
import com.azure.core.http.jdk.httpclient.JdkHttpClientBuilder;
import com.azure.core.http.rest.PagedResponse;
import com.azure.core.util.Context;
import com.azure.storage.common.StorageSharedKeyCredential;
import com.azure.storage.common.policy.RequestRetryOptions;
import com.azure.storage.common.policy.RetryPolicyType;
import com.azure.storage.file.share.ShareClient;
import com.azure.storage.file.share.ShareDirectoryClient;
import com.azure.storage.file.share.ShareFileClient;
import com.azure.storage.file.share.ShareServiceClientBuilder;
import com.azure.storage.file.share.models.ShareFileItem;
import com.azure.storage.file.share.options.ShareListFilesAndDirectoriesOptions;

import io.mover.spi.Attributes;
import io.mover.spi.EndpointInfo;
import io.mover.spi.Entry;
import io.mover.spi.EntryType;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.PluginConfig;
import io.mover.spi.PluginContext;
import io.mover.spi.RelativePath;

/**
 * One share (below a root directory) as the source and the sink see it: SDK clients for paths, stat, and the
 * listing. A listing is one request per page of up to 5,000 entries and carries timestamps, ETag, attributes and
 * permission key (the include options of List Directories and Files, and its extended info), so a compare never
 * makes a per-file property call.
 */
final class AzureShare implements AutoCloseable {
    /** Mtime precision of SMB timestamps on Azure Files. */
    static final EndpointInfo INFO = new EndpointInfo(Duration.ofNanos(100), java.util.Set.of(), false, false, true);
    static final String ATTRIBUTES = "smb.attributes";
    static final String CHANGE_TIME = "smb.change-time";
    static final String PERMISSION_KEY = "smb.permission-key";
    static final String ETAG = "etag";
    /** Requests in flight to a share unless {@code max-concurrency} says otherwise; the sink suggests as many files in flight. */
    static final int MAX_CONCURRENCY = 64;
    /**
     * One client for every share. Its timeouts (azure-core's defaults: 60 s to write a request, to the response's
     * headers, and between reads of a body; AZURE_REQUEST_WRITE_TIMEOUT and the like change them) end a hung
     * connection, which the SDK's retry policy then sends again.
     *
     * <p>Each of its tasks starts a virtual thread, instead of going to azure-core's shared executor, a scheduled
     * pool whose every task took a lock, a queue insert and a thread wake-up, several per request (the SDK's Put
     * Range is asynchronous inside, so its whole pipeline runs through them): mover then spent about a tenth less CPU
     * per GiB of 1 MiB files (docs/benchmarks.md). Not the selector's own thread ({@code Runnable::run}, as cheap
     * here): that one thread would then do every connection's body writes, and with TLS their encryption, for all
     * shares of the process.
     */
    private static final HttpClient HTTP = new JdkHttpClientBuilder().executor(Thread::startVirtualThread).build();
    /**
     * Four tries, exponential from 200 ms to 8 s. No per-try timeout (null): the SDK enforces one with a Reactor
     * timer around every try, the synchronous ones too (a Mono blocked on): a timer task scheduled and cancelled per
     * request. The HTTP client's timeouts above bound a try instead, and a try's wait for its turn ({@link Throttle})
     * is not cut short.
     */
    private static final RequestRetryOptions RETRIES = new RequestRetryOptions(RetryPolicyType.EXPONENTIAL, 4, (Duration) null,
            Duration.ofMillis(200), Duration.ofSeconds(8), null);
    /** What a listing asks for: everything a compare needs, so that it makes no per-file call. */
    private static final ShareListFilesAndDirectoriesOptions LISTING = new ShareListFilesAndDirectoriesOptions().setIncludeTimestamps(true)
            .setIncludeETag(true).setIncludeAttributes(true).setIncludePermissionKey(true).setIncludeExtendedInfo(true);

    final AzureLocation location;
    final ShareClient client;
    final Throttle throttle;
    final PluginContext context;
    final int listingThreads;
    final Permissions permissions = new Permissions(this);
    /** The check's page of the root; any request that may change the share drops it ({@link Writes}). */
    private final AtomicReference<RootPage> rootPage;
    /** The check listed the root: it is a directory and exists. */
    private volatile boolean rootListed;

    private AzureShare(AzureLocation location, ShareClient client, Throttle throttle, PluginContext context, int listingThreads,
            AtomicReference<RootPage> rootPage) {
        this.location = location;
        this.client = client;
        this.throttle = throttle;
        this.context = context;
        this.listingThreads = listingThreads;
        this.rootPage = rootPage;
    }

    static AzureShare open(AzureLocation location, PluginConfig config, PluginContext context) {
        Throttle throttle = new Throttle(config.integer("max-concurrency").orElse(MAX_CONCURRENCY), config.integer("max-requests-per-second").orElse(0));
        ShareServiceClientBuilder builder = new ShareServiceClientBuilder().endpoint(location.endpoint()).httpClient(HTTP)
                .retryOptions(RETRIES)
                .addPolicy(throttle);
        AtomicReference<RootPage> rootPage = new AtomicReference<>();
        builder.addPolicy(new Writes(() -> rootPage.set(null)));
        java.net.URI endpoint = java.net.URI.create(location.endpoint());
        if (endpoint.getPort() >= 0 || endpoint.getRawPath() != null && !endpoint.getRawPath().isEmpty() && !endpoint.getRawPath().equals("/")) {
            builder.addPolicy(new EndpointPath(endpoint));
        }
        if (location.sas().isPresent()) {
            builder.sasToken(location.sas().get().reveal());
        }
        else {
            builder.credential(new StorageSharedKeyCredential(location.account(), location.accountKey().orElseThrow().reveal()));
        }
        AzureShare share = new AzureShare(location, builder.buildClient().getShareClient(location.share()), throttle, context,
                config.integer("listing-threads").orElse(16), rootPage);
        share.checkRoot();
        return share;
    }

    /**
     * Fails early, before any file moves, if the share is missing or the credentials are refused. The check is the
     * first page of the root's own listing, kept for the first {@link #list} of the root (a compare lists it next):
     * a no-change sync then makes listing requests only. A root that is missing (a sink creates it) or a file (a
     * source of one file) passes; the engine's stat names it.
     */
    private void checkRoot() {
        try {
            PagedResponse<ShareFileItem> page = directory(RelativePath.ROOT).listFilesAndDirectories(LISTING, null, Context.NONE).iterableByPage().iterator().next();
            rootListed = true;
            rootPage.set(new RootPage(page.getValue(), page.getContinuationToken(), System.nanoTime()));
        }
        catch (RuntimeException e) {
            if (!AzureErrors.isNotFound(e) || AzureErrors.code(e).equals("ShareNotFound")) {
                // the share's root, as the check was before: it names a missing share or refused credentials, and passes
                // a root the listing refused for another reason (a file, if a service answers that otherwise than 404)
                call("list", "", 'l', () -> client.getRootDirectoryClient().listFilesAndDirectories(
                        new ShareListFilesAndDirectoriesOptions().setMaxResultsPerPage(1), null, Context.NONE).iterableByPage().iterator().hasNext());
            }
        }
    }

    /** Creates the endpoint's root directory and its missing parents (a sink's destination need not exist yet); none if the check listed it. */
    void createRoot() {
        if (rootListed) {
            return;
        }
        RelativePath done = RelativePath.ROOT;
        for (String segment : location.root().segments()) {
            done = done.resolve(segment);
            String path = done.toString();
            call("create directory", location.display(), 'c', () -> client.getDirectoryClient(path).createIfNotExists());
        }
    }

    String where(RelativePath path) {
        return location.display() + (path.isRoot() ? "" : "/" + path);
    }

    /** The path inside the share: the endpoint's root joined with {@code path}. */
    String sharePath(RelativePath path) {
        return location.root().resolve(path).toString();
    }

    ShareDirectoryClient directory(RelativePath path) {
        String full = sharePath(path);
        return full.isEmpty() ? client.getRootDirectoryClient() : client.getDirectoryClient(full);
    }

    ShareFileClient file(RelativePath path) {
        return client.getFileClient(sharePath(path));
    }

    /**
     * A client of {@code path} only to rename it from: the SDK (12.29.1) builds the Rename File source header by
     * URL-decoding the file's raw path and encoding it again, so a raw '%' fails ("URLDecoder: Illegal hex
     * characters") or, before two hex digits, names another file. Written as "%25" here, it decodes back to '%'
     * and goes out encoded, as the service expects.
     */
    ShareFileClient renameSource(RelativePath path) {
        return client.getFileClient(sharePath(path).replace("%", "%25"));
    }

    /** The URL of a file (no credentials), as the service names it; with an endpoint path, that path included. */
    String fileUrl(RelativePath path) {
        StringBuilder url = new StringBuilder(location.endpoint()).append('/').append(location.share());
        for (String segment : location.root().resolve(path).segments()) {
            url.append('/').append(java.net.URLEncoder.encode(segment, java.nio.charset.StandardCharsets.UTF_8).replace("+", "%20"));
        }
        return url.toString();
    }

    <T> T call(String what, RelativePath path, char permission, Supplier<T> action) {
        return call(what, where(path), permission, action);
    }

    private <T> T call(String what, String where, char permission, Supplier<T> action) {
        try {
            return action.get();
        }
        catch (RuntimeException e) {
            throw AzureErrors.map(e, what, where.isEmpty() ? location.display() : where, permission);
        }
    }

    Optional<Entry> stat(RelativePath path) {
        if (path.isRoot() && location.root().isRoot()) {
            var properties = call("read properties of", path, 'r', () -> client.getProperties());
            return Optional.of(Entry.directory(path, properties.getLastModified().toInstant()));
        }
        if (!(path.isRoot() && rootListed)) {   // the check listed the root: a directory, no Get File Properties to find out
            Optional<Entry> file = fileStat(path);
            if (file.isPresent()) {
                return file;
            }
        }
        return directoryStat(path);
    }

    /** The file at {@code path}; empty when there is none (a directory, or nothing). */
    private Optional<Entry> fileStat(RelativePath path) {
        try {
            var file = file(path).getProperties();
            var smb = file.getSmbProperties();
            return Optional.of(new Entry(path, EntryType.FILE, file.getContentLength(), smb.getFileLastWriteTime().toInstant(),
                    attributes(smb.getFileCreationTime(), smb.getNtfsFileAttributes(), smb.getFileChangeTime(), smb.getFilePermissionKey(), file.getETag())));
        }
        catch (RuntimeException e) {
            if (!AzureErrors.isNotFound(e) || AzureErrors.code(e).equals("ShareNotFound")) {
                throw AzureErrors.map(e, "read properties of", where(path), 'r');
            }
            return Optional.empty();
        }
    }

    private Optional<Entry> directoryStat(RelativePath path) {
        try {
            var directory = directory(path).getProperties();
            var smb = directory.getSmbProperties();
            return Optional.of(new Entry(path, EntryType.DIRECTORY, 0, smb.getFileLastWriteTime().toInstant(),
                    attributes(smb.getFileCreationTime(), smb.getNtfsFileAttributes(), smb.getFileChangeTime(), smb.getFilePermissionKey(), directory.getETag())));
        }
        catch (RuntimeException e) {
            if (AzureErrors.isNotFound(e) && !AzureErrors.code(e).equals("ShareNotFound")) {
                return Optional.empty();
            }
            throw AzureErrors.map(e, "read properties of", where(path), 'r');
        }
    }

    /**
     * One directory's entries, one request per page, with the listing's timestamps, ETag, attributes and permission
     * key. {@code includeTemporaries} is for the sink's own sweep.
     */
    Stream<Entry> list(RelativePath directory, java.util.function.Predicate<String> hide) {
        List<Entry> entries = new ArrayList<>();
        try {
            RootPage first = directory.isRoot() ? rootPage.getAndSet(null) : null;
            Stream<ShareFileItem> items;
            if (first != null && first.fresh(System.nanoTime())) {
                items = first.continuation() == null ? first.items().stream() : Stream.concat(first.items().stream(),
                        directory(directory).listFilesAndDirectories(LISTING, null, Context.NONE).streamByPage(first.continuation())
                                .flatMap(page -> page.getValue().stream()));
            }
            else {
                items = directory(directory).listFilesAndDirectories(LISTING, null, Context.NONE).stream();
            }
            for (ShareFileItem item : (Iterable<ShareFileItem>) items::iterator) {
                if (!hide.test(item.getName())) {
                    entries.add(entry(directory.resolve(item.getName()), item));
                }
            }
        }
        catch (RuntimeException e) {
            if (AzureErrors.isNotFound(e) && !AzureErrors.code(e).equals("ShareNotFound") && stat(directory).filter(Entry::isFile).isPresent()) {
                throw new MoverException(ErrorCode.NOT_A_DIRECTORY, "cannot list " + where(directory) + ": it is a file");
            }
            throw AzureErrors.map(e, "list", where(directory), 'l');
        }
        return entries.stream();
    }

    private static Entry entry(RelativePath path, ShareFileItem item) {
        var properties = item.getProperties();
        Instant lastWrite = properties == null || properties.getLastWrittenOn() == null ? Instant.EPOCH : properties.getLastWrittenOn().toInstant();
        return new Entry(path, item.isDirectory() ? EntryType.DIRECTORY : EntryType.FILE, item.isDirectory() ? 0 : item.getFileSize(), lastWrite,
                attributes(properties == null ? null : properties.getCreatedOn(), item.getFileAttributes(), properties == null ? null : properties.getChangedOn(),
                        item.getPermissionKey(), properties == null ? null : properties.getETag()));
    }

    private static Attributes attributes(java.time.OffsetDateTime created, java.util.EnumSet<com.azure.storage.file.share.models.NtfsFileAttributes> smb,
            java.time.OffsetDateTime changed, String permissionKey, String etag) {
        Map<String, String> extended = new HashMap<>();
        if (smb != null) {
            extended.put(ATTRIBUTES, com.azure.storage.file.share.models.NtfsFileAttributes.toString(smb));
        }
        if (changed != null) {
            extended.put(CHANGE_TIME, changed.toInstant().toString());
        }
        if (permissionKey != null) {
            extended.put(PERMISSION_KEY, permissionKey);
        }
        if (etag != null) {
            extended.put(ETAG, etag);
        }
        return new Attributes(java.util.OptionalInt.empty(), Optional.ofNullable(created).map(java.time.OffsetDateTime::toInstant), Optional.empty(), Map.of(), extended);
    }

    @Override
    public void close() {
        long throttled = throttle.throttledCount();
        if (throttled > 0) {
            context.logger().log(System.Logger.Level.WARNING, "Azure Files share " + location.display() + ": " + throttled
                    + " requests throttled (503 ServerBusy / 429) of " + throttle.requestCount() + "; concurrency ended at " + throttle.currentLimit());
        }
    }
}
