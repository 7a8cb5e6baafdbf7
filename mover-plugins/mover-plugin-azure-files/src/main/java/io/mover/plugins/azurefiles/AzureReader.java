package io.mover.plugins.azurefiles;

import java.io.OutputStream;
import java.nio.ByteBuffer;

import com.azure.core.util.Context;
import com.azure.storage.file.share.ShareFileClient;
import com.azure.storage.file.share.models.ShareFileRange;
import com.azure.storage.file.share.options.ShareFileDownloadOptions;

import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.RelativePath;
import io.mover.spi.SourceReader;

/**
 * Reads one file by ranged Get File requests, one per {@link #read}; the engine reads ranges of a large file in
 * parallel through one reader. {@link #abort()} (a cancelled job) interrupts the threads inside a read, so a read
 * waiting out throttling (a Retry-After, the back-off, a turn of the adaptive concurrency) ends at once.
 */
final class AzureReader implements SourceReader {
    private final AzureShare share;
    private final RelativePath path;
    private final ShareFileClient file;
    private final long size;
    private final AbortableCalls reading;

    AzureReader(AzureShare share, RelativePath path) {
        this.share = share;
        this.path = path;
        this.file = share.file(path);
        this.reading = new AbortableCalls("the read of " + share.where(path));
        this.size = share.call("read properties of", path, 'r', () -> file.getProperties().getContentLength());
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public int read(long position, ByteBuffer destination) {
        int length = (int) Math.min(destination.remaining(), size - position);
        if (length <= 0) {
            return 0;
        }
        int before = destination.position();
        reading.call(() -> share.call("read", path, 'r', () -> file.downloadWithResponse(into(destination),
                new ShareFileDownloadOptions().setRange(new ShareFileRange(position, position + length - 1)), null, Context.NONE)));
        return destination.position() - before;
    }

    /** Where a response body goes: the caller's buffer, until the read was aborted (the buffer is no longer ours then). */
    private OutputStream into(ByteBuffer destination) {
        return new OutputStream() {
            @Override
            public void write(int b) {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] bytes, int offset, int count) {
                if (reading.aborted()) {
                    throw reading.cancelled();
                }
                if (count > destination.remaining()) {
                    throw new MoverException(ErrorCode.SOURCE_CHANGED, "file " + share.where(path) + " changed while it was read");
                }
                destination.put(bytes, offset, count);
            }
        };
    }

    @Override
    public void abort() {
        reading.abort();
    }

    @Override
    public void close() {
        // nothing held between reads
    }
}
