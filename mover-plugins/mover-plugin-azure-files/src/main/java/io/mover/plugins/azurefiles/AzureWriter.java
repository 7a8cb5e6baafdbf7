package io.mover.plugins.azurefiles;

import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import com.azure.core.util.Context;
import com.azure.storage.file.share.ShareFileClient;
import com.azure.storage.file.share.FileSmbProperties;
import com.azure.storage.file.share.options.ShareFileRenameOptions;
import com.azure.storage.file.share.models.ShareFileUploadRangeOptions;

import io.mover.spi.Entry;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.RelativePath;
import io.mover.spi.SinkWriter;

/**
 * Writes one file: the temporary was created with its final size; {@link #write} puts ranges of at most 4 MiB
 * (several in parallel when a write is larger); {@link #commit} renames the temporary over the final name (Rename
 * File with replace-if-exists, carrying the SMB properties), so the file appears at once, complete: three requests
 * for a file of up to 4 MiB.
 */
final class AzureWriter implements SinkWriter {
    static final int MAX_RANGE = 4 << 20;
    private final AzureFilesSink sink;
    private final RelativePath path;
    private final RelativePath temporary;
    private final ShareFileClient client;
    private final long size;
    private final Entry entry;
    /** Threads inside a request for this file: {@link #abort} from another thread interrupts them, so a write waiting out throttling ends at once. */
    private final java.util.Set<Thread> sending = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private volatile boolean aborted;
    private volatile boolean committed;

    AzureWriter(AzureFilesSink sink, RelativePath path, RelativePath temporary, long size, Entry entry) {
        this.sink = sink;
        this.path = path;
        this.temporary = temporary;
        this.client = sink.share.file(temporary);
        this.size = size;
        this.entry = entry;
    }

    @Override
    public void write(long position, ByteBuffer source) {
        if (aborted || committed) {
            throw new MoverException(ErrorCode.CANCELLED, "write to " + sink.share.where(path) + " after it was " + (aborted ? "aborted" : "committed"));
        }
        if (position + source.remaining() > size) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "write past the size declared for " + sink.share.where(path) + " (" + size + " bytes)");
        }
        List<long[]> ranges = new ArrayList<>();
        List<byte[]> chunks = new ArrayList<>();
        while (source.hasRemaining()) {
            byte[] chunk = new byte[Math.min(MAX_RANGE, source.remaining())];
            ranges.add(new long[] {position + source.position() - source.position(), chunk.length});
            source.get(chunk);
            chunks.add(chunk);
        }
        long offset = position;
        for (long[] range : ranges) {
            range[0] = offset;
            offset += range[1];
        }
        if (chunks.size() == 1) {
            upload(ranges.getFirst()[0], chunks.getFirst());
            return;
        }
        try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> uploads = new ArrayList<>();
            for (int i = 0; i < chunks.size(); i++) {
                long at = ranges.get(i)[0];
                byte[] chunk = chunks.get(i);
                uploads.add(pool.submit(() -> upload(at, chunk)));
            }
            for (Future<?> upload : uploads) {
                upload.get();
            }
        }
        catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException runtime ? runtime : new MoverException(ErrorCode.IO_ERROR, "upload failed", e.getCause());
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MoverException(ErrorCode.CANCELLED, "write to " + sink.share.where(path) + " interrupted");
        }
    }

    private void upload(long at, byte[] chunk) {
        Thread current = Thread.currentThread();
        sending.add(current);
        try {
            if (aborted) {
                throw cancelled();
            }
            sink.share.call("write a range of", path, 'w', () -> client.uploadRangeWithResponse(
                    new ShareFileUploadRangeOptions(new ByteArrayInputStream(chunk), chunk.length).setOffset(at), null, Context.NONE));
        }
        catch (RuntimeException e) {
            throw aborted ? cancelled() : e;
        }
        finally {
            sending.remove(current);
            if (aborted) {
                Thread.interrupted();   // the interrupt was abort's, not the engine's: the thread goes on to clean up
            }
        }
    }

    private MoverException cancelled() {
        return new MoverException(ErrorCode.CANCELLED, "the write of " + sink.share.where(path) + " was aborted");
    }

    @Override
    public Entry commit() {
        if (aborted || committed) {
            throw new IllegalStateException("commit of " + sink.share.where(path) + " after " + (aborted ? "abort" : "commit"));
        }
        // one request: Rename File carries the SMB properties (last-write time, and attributes and creation time if kept)
        FileSmbProperties smb = sink.smbFor(entry);
        sink.share.call("rename into place", path, 'w', () -> sink.share.renameSource(temporary).renameWithResponse(new ShareFileRenameOptions(sink.share.sharePath(path))
                .setReplaceIfExists(true).setIgnoreReadOnly(true).setSmbProperties(smb), null, Context.NONE));
        committed = true;
        sink.closed(temporary);
        return new Entry(path, io.mover.spi.EntryType.FILE, size, smb.getFileLastWriteTime().toInstant(), io.mover.spi.Attributes.NONE);
    }

    /** Where the bytes go until the commit (for tests). */
    RelativePath temporary() {
        return temporary;
    }

    @Override
    public void abort() {
        if (committed || aborted) {
            return;
        }
        aborted = true;
        sending.forEach(Thread::interrupt);
        try {
            client.delete();
        }
        catch (RuntimeException e) {
            if (!AzureErrors.isNotFound(e)) {
                sink.share.context.logger().log(System.Logger.Level.WARNING, "could not remove temporary " + sink.share.where(temporary)
                        + "; a later run of this job removes it");
            }
        }
        finally {
            sink.closed(temporary);
        }
    }
}
