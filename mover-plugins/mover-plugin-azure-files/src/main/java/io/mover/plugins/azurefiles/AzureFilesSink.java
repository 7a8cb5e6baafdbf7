package io.mover.plugins.azurefiles;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.azure.core.util.Context;
import com.azure.storage.file.share.FileSmbProperties;
import com.azure.storage.file.share.models.NtfsFileAttributes;
import com.azure.storage.file.share.options.ShareFileCopyOptions;
import com.azure.storage.file.share.options.ShareFileCreateOptions;
import com.azure.storage.file.share.options.ShareFileRenameOptions;

import io.mover.spi.EndpointInfo;
import io.mover.spi.Entry;
import io.mover.spi.ErrorCode;
import io.mover.spi.FilesInFlight;
import io.mover.spi.FreeSpace;
import io.mover.spi.MoverException;
import io.mover.spi.PluginConfig;
import io.mover.spi.PluginCounters;
import io.mover.spi.RecursiveList;
import io.mover.spi.RelativePath;
import io.mover.spi.ServerSideCopy;
import io.mover.spi.Sink;
import io.mover.spi.SinkWriter;
import io.mover.spi.Source;

/**
 * An Azure Files share as a sink. Files are written under a temporary name {@code .partial.<jobKey>.<random>}
 * beside the final one and renamed over it at commit. Share to share, {@link #copyFrom} has the service copy the
 * bytes (Copy File, the source authorized by a SAS), so they never pass through mover.
 */
final class AzureFilesSink implements Sink, RecursiveList, ServerSideCopy, PluginCounters, FreeSpace, FilesInFlight {
    static final long MAX_FILE_SIZE = 4L << 40;
    private static final String TEMPORARY = ".partial.";
    private static final Pattern FORBIDDEN = Pattern.compile("[\"\\\\:|<>*?\\x00-\\x1f]");

    final AzureShare share;
    private final boolean preserveSmb;
    private final boolean preservePermissions;
    private final int filesInFlight;
    private final Set<RelativePath> open = ConcurrentHashMap.newKeySet();

    AzureFilesSink(AzureShare share, PluginConfig config) {
        this.share = share;
        this.preserveSmb = config.bool("preserve-smb-info").orElse(false);
        this.preservePermissions = config.bool("preserve-permissions").orElse(false);
        this.filesInFlight = config.integer("max-concurrency").orElse(AzureShare.MAX_CONCURRENCY);
    }

    /**
     * As many files as the share admits requests ({@code max-concurrency}, 64): a file of up to 4 MiB is one Put Range
     * at a time, so fewer files leave permits unused and more would only queue in {@link Admission}. Why 64, not the
     * engine's 16: each request waits ~10 ms for the share and all bodies share its bandwidth, so a body's time is
     * mostly queueing. Copying 10,000 x 1 MiB at 300 MB/s (bench/azure-files.sh part 2, loaded machine) reached 65% of
     * the limit at 16 files in flight and 82-87% at 64: at 64 a body waits ~0.2 s in the bandwidth queue, enough queued
     * to ride out the pauses between files (a Rename, a folder's requests), where 16 let the limit run dry. Throttling
     * still halves the requests in flight (AIMD in Admission); files above that wait there for a permit.
     */
    @Override
    public int filesInFlight() {
        return filesInFlight;
    }

    @Override
    public EndpointInfo info() {
        return AzureShare.INFO;
    }

    @Override
    public Optional<Entry> stat(RelativePath path) {
        return isTemporary(path.name()) ? Optional.empty() : share.stat(path);
    }

    @Override
    public Stream<Entry> list(RelativePath directory) {
        return share.list(directory, AzureFilesSink::isTemporary);
    }

    @Override
    public Stream<Entry> listRecursively(RelativePath directory) {
        return Crawl.tree(share, directory, AzureFilesSink::isTemporary);
    }

    @Override
    public boolean mkdirs(RelativePath directory) {
        checkName(directory);
        if (directory.isRoot()) {
            return false;
        }
        try {
            share.directory(directory).create();
            return true;
        }
        catch (RuntimeException e) {
            String code = AzureErrors.code(e);
            if (code.equals("ResourceAlreadyExists")) {
                return false;
            }
            if (code.equals("ResourceTypeMismatch")) {
                throw new MoverException(ErrorCode.NOT_A_DIRECTORY, "cannot create directory " + share.where(directory) + ": a file is in the way");
            }
            if (code.equals("ParentNotFound")) {
                if (share.stat(directory.parent()).filter(Entry::isFile).isPresent()) {
                    throw new MoverException(ErrorCode.NOT_A_DIRECTORY, "cannot create directory " + share.where(directory) + ": " + directory.parent() + " is a file");
                }
                mkdirs(directory.parent());
                return mkdirs(directory);
            }
            throw AzureErrors.map(e, "create directory", share.where(directory), 'c');
        }
    }

    @Override
    public SinkWriter create(RelativePath path, long size, Entry entry) {
        if (path.isRoot()) {
            throw new MoverException(ErrorCode.INVALID_PATH, "cannot write a file at the root of " + share.where(path) + ": name a file below it");
        }
        checkName(path);
        if (size > MAX_FILE_SIZE) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "cannot copy " + entry.path() + " to " + share.where(path) + ": it has " + size
                    + " bytes and Azure Files holds at most 4 TiB per file");
        }
        RelativePath temporary = temporaryFor(path);
        try {
            share.file(temporary).createWithResponse(new ShareFileCreateOptions(size), null, Context.NONE);
        }
        catch (RuntimeException e) {
            throw parentProblem(e, path, "create");
        }
        open.add(temporary);
        return new AzureWriter(this, path, temporary, size, entry);
    }

    private MoverException parentProblem(RuntimeException e, RelativePath path, String what) {
        if (AzureErrors.code(e).equals("ParentNotFound") && share.stat(path.parent()).filter(Entry::isFile).isPresent()) {
            return new MoverException(ErrorCode.NOT_A_DIRECTORY, "cannot " + what + " " + share.where(path) + ": " + path.parent() + " is a file");
        }
        return AzureErrors.map(e, what, share.where(path), 'c');
    }

    /** A temporary beside {@code path}, so that Rename File stays within one directory. */
    private RelativePath temporaryFor(RelativePath path) {
        return path.parent().resolve(TEMPORARY + share.context.jobKey() + "." + UUID.randomUUID().toString().substring(0, 13));
    }

    void closed(RelativePath temporary) {
        open.remove(temporary);
    }

    /** The SMB properties a committed file gets: its last-write time always, the rest with preserve-smb-info. */
    FileSmbProperties smbFor(Entry entry) {
        FileSmbProperties smb = new FileSmbProperties().setFileLastWriteTime(OffsetDateTime.ofInstant(entry.lastModified(), ZoneOffset.UTC));
        if (preserveSmb) {
            entry.attributes().creationTime().ifPresent(created -> smb.setFileCreationTime(OffsetDateTime.ofInstant(created, ZoneOffset.UTC)));
            Optional.ofNullable(entry.attributes().extended().get(AzureShare.ATTRIBUTES)).filter(a -> !a.isBlank())
                    .ifPresent(attributes -> smb.setNtfsFileAttributes(NtfsFileAttributes.toAttributes(attributes)));
        }
        return smb;
    }

    /** Share to share: Copy File into a temporary, then Rename File over the final name. Empty for other sources. */
    @Override
    public Optional<Entry> copyFrom(Source source, Entry entry, RelativePath target) {
        if (!(source instanceof AzureFilesSource azure) || entry.size() > MAX_FILE_SIZE) {
            return Optional.empty();
        }
        checkName(target);
        String sourceUrl = ServiceCopy.sourceUrl(azure.share, entry.path());
        RelativePath temporary = temporaryFor(target);
        var client = share.file(temporary);
        open.add(temporary);
        try {
            ShareFileCopyOptions options = ServiceCopy.options(preserveSmb, preservePermissions);
            share.call("copy (service side) to", target, 'w', () -> client.beginCopy(sourceUrl, options, Duration.ofMillis(500))
                    .waitForCompletion(Duration.ofHours(6)));
            share.call("rename into place", target, 'w', () -> share.renameSource(temporary).renameWithResponse(
                    new ShareFileRenameOptions(share.sharePath(target)).setReplaceIfExists(true).setIgnoreReadOnly(true), null, Context.NONE));
        }
        catch (RuntimeException e) {
            ServiceCopy.abortPending(client);
            deleteQuietly(temporary);
            throw e;
        }
        finally {
            open.remove(temporary);
        }
        return Optional.of(new Entry(target, io.mover.spi.EntryType.FILE, entry.size(), entry.lastModified(), entry.attributes()));
    }

    @Override
    public void delete(RelativePath path, boolean recursive) {
        if (path.isRoot()) {
            throw new MoverException(ErrorCode.INVALID_PATH, "refusing to delete the root of " + share.where(path));
        }
        Optional<Entry> entry = share.stat(path);
        if (entry.isEmpty()) {
            return;
        }
        if (entry.get().isFile()) {
            deleteFile(path);
            return;
        }
        if (recursive) {
            try (Stream<Entry> children = share.list(path, name -> false)) {
                for (Entry child : children.toList()) {
                    delete(child.path(), true);
                }
            }
        }
        try {
            share.directory(path).delete();
        }
        catch (RuntimeException e) {
            if (!AzureErrors.isNotFound(e)) {
                throw AzureErrors.map(e, "delete", share.where(path), 'd');
            }
        }
    }

    private void deleteFile(RelativePath path) {
        try {
            share.file(path).delete();
        }
        catch (RuntimeException e) {
            if (!AzureErrors.isNotFound(e)) {
                throw AzureErrors.map(e, "delete", share.where(path), 'd');
            }
        }
    }

    private void deleteQuietly(RelativePath path) {
        try {
            deleteFile(path);
        }
        catch (MoverException e) {
            share.context.logger().log(System.Logger.Level.WARNING, "could not remove temporary " + share.where(path) + "; a later run removes it");
        }
    }

    @Override
    public void setAttributes(RelativePath path, Entry entry) {
        if (entry.isDirectory() && setDirectoryProperties(path, entry)) {
            return;
        }
        java.util.function.Supplier<MoverException> missing = () -> new MoverException(ErrorCode.NOT_FOUND, "cannot set attributes of " + share.where(path)
                + ": it does not exist");
        Entry existing = share.stat(path).orElseThrow(missing);
        if (existing.isFile()) {
            FileSmbProperties smb = smbFor(entry);
            share.call("set properties of", path, 'w', () -> share.file(path).setProperties(existing.size(), null, smb, null));
        }
        else if (!setDirectoryProperties(path, entry)) {
            throw missing.get();
        }
    }

    /**
     * A directory's properties (with preserve-permissions its source's descriptor), one request: the engine sets every
     * folder's time after a copy, and a stat first made it three. False when no directory is at {@code path}.
     */
    private boolean setDirectoryProperties(RelativePath path, Entry entry) {
        FileSmbProperties smb = smbFor(entry);
        if (preservePermissions) {
            Permissions.descriptor(entry).ifPresent(sddl -> smb.setFilePermissionKey(share.permissions.keyFor(sddl)));
        }
        try {
            share.directory(path).setProperties(smb, null);
            return true;
        }
        catch (RuntimeException e) {
            if (AzureErrors.isNotFound(e) && !AzureErrors.code(e).equals("ShareNotFound")) {
                return false;
            }
            throw AzureErrors.map(e, "set properties of", share.where(path), 'w');
        }
    }

    @Override
    public int removeStaleTemporaries(RelativePath directory) {
        String mine = TEMPORARY + share.context.jobKey() + ".";
        List<Entry> stale;
        try (Stream<Entry> entries = share.list(directory, name -> !name.startsWith(mine))) {
            stale = entries.filter(entry -> !open.contains(entry.path())).toList();
        }
        stale.forEach(entry -> deleteFile(entry.path()));
        return stale.size();
    }

    static boolean isTemporary(String name) {
        return name.startsWith(TEMPORARY);
    }

    /** Names Azure Files forbids, and the names of our temporaries, are refused per file before any request. */
    private void checkName(RelativePath path) {
        for (String segment : path.segments()) {
            if (isTemporary(segment)) {
                throw new MoverException(ErrorCode.INVALID_PATH, "the name " + segment + " in " + path + " is reserved for mover's temporaries");
            }
            if (FORBIDDEN.matcher(segment).find() || segment.endsWith(".")) {
                throw new MoverException(ErrorCode.INVALID_PATH, "Azure Files forbids the name '" + segment + "' in " + path
                        + " (no \" \\ : | < > * ? or control characters, no trailing dot); rename it or exclude it");
            }
        }
    }

    /** The share's quota less its usage (the same for every folder of the share); empty when the credentials may not read them. */
    @Override
    public java.util.OptionalLong usableSpace(RelativePath directory) {
        return ShareSpace.usable(share);
    }

    /** The share's throttling counts: requests, 503s and 429s, resends, time waited. */
    @Override
    public java.util.Map<String, Long> counters() {
        return share.throttle.counters();
    }

    @Override
    public void close() {
        share.close();
    }
}
