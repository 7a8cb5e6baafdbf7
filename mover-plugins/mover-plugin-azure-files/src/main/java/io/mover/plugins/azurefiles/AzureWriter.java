package io.mover.plugins.azurefiles;

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

import reactor.core.publisher.Flux;

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
    /** The Put Range requests: {@link #abort} from another thread ends them, so a write waiting out throttling ends at once. */
    private final AbortableCalls sending;
    private volatile boolean committed;

    AzureWriter(AzureFilesSink sink, RelativePath path, RelativePath temporary, long size, Entry entry) {
        this.sink = sink;
        this.path = path;
        this.temporary = temporary;
        this.client = sink.share.file(temporary);
        this.size = size;
        this.entry = entry;
        this.sending = new AbortableCalls("the write of " + sink.share.where(path));
    }

    @Override
    public void write(long position, ByteBuffer source) {
        if (sending.aborted() || committed) {
            throw new MoverException(ErrorCode.CANCELLED, "write to " + sink.share.where(path) + " after it was " + (sending.aborted() ? "aborted" : "committed"));
        }
        if (position + source.remaining() > size) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "write past the size declared for " + sink.share.where(path) + " (" + size + " bytes)");
        }
        // slices of the engine's buffer, not copies: the buffer stays ours until this method returns, and the SDK
        // sends a Flux of it as it is (a direct buffer goes to the socket without a copy in the JVM)
        List<ByteBuffer> slices = new ArrayList<>();
        for (int at = source.position(); at < source.limit(); at += MAX_RANGE) {
            slices.add(source.slice(at, Math.min(MAX_RANGE, source.limit() - at)));
        }
        long start = position;
        if (slices.size() == 1) {
            upload(start, slices.getFirst());
            source.position(source.limit());
            return;
        }
        try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> uploads = new ArrayList<>();
            for (int i = 0; i < slices.size(); i++) {
                long at = start + (long) i * MAX_RANGE;
                ByteBuffer slice = slices.get(i);
                uploads.add(pool.submit(() -> upload(at, slice)));
            }
            for (Future<?> upload : uploads) {
                upload.get();
            }
            source.position(source.limit());
        }
        catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException runtime ? runtime : new MoverException(ErrorCode.IO_ERROR, "upload failed", e.getCause());
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MoverException(ErrorCode.CANCELLED, "write to " + sink.share.where(path) + " interrupted");
        }
    }

    /**
     * One Put Range of {@code slice}. The body is a Flux that emits a fresh duplicate of the slice to each subscriber,
     * so a request sent again (throttling, the SDK's retries) sends the same bytes, without buffering a copy.
     */
    private void upload(long at, ByteBuffer slice) {
        Flux<ByteBuffer> body = Flux.defer(() -> Flux.just(slice.duplicate()));
        sending.call(() -> sink.share.call("write a range of", path, 'w', () -> client.uploadRangeWithResponse(
                new ShareFileUploadRangeOptions(body, slice.remaining()).setOffset(at), null, Context.NONE)));
    }

    @Override
    public Entry commit() {
        if (sending.aborted() || committed) {
            throw new IllegalStateException("commit of " + sink.share.where(path) + " after " + (sending.aborted() ? "abort" : "commit"));
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
        if (committed || sending.aborted()) {
            return;
        }
        sending.abort();
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
