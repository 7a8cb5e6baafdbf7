package io.mover.plugins.azurefiles;

import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.stream.Stream;

import com.azure.core.util.Context;
import com.azure.storage.file.share.models.ShareFileRange;
import com.azure.storage.file.share.options.ShareFileDownloadOptions;

import io.mover.spi.EndpointInfo;
import io.mover.spi.Entry;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.PluginCounters;
import io.mover.spi.RecursiveList;
import io.mover.spi.RelativePath;
import io.mover.spi.Source;
import io.mover.spi.SourceReader;

/**
 * An Azure Files share as a source: listings with attributes, a tree crawled in parallel, ranged reads. Directory
 * entries carry their permission's descriptor ({@link Permissions}) for a sink on another share.
 */
final class AzureFilesSource implements Source, RecursiveList, PluginCounters {
    final AzureShare share;

    AzureFilesSource(AzureShare share) {
        this.share = share;
    }

    @Override
    public EndpointInfo info() {
        return AzureShare.INFO;
    }

    @Override
    public Optional<Entry> stat(RelativePath path) {
        return share.stat(path).map(share.permissions::withDescriptor);
    }

    @Override
    public Stream<Entry> list(RelativePath directory) {
        return share.list(directory, name -> false).map(share.permissions::withDescriptor);
    }

    @Override
    public Stream<Entry> listRecursively(RelativePath directory) {
        return Crawl.tree(share, directory, name -> false).map(share.permissions::withDescriptor);
    }

    @Override
    public SourceReader open(RelativePath path) {
        var file = share.file(path);
        long size = share.call("read properties of", path, 'r', () -> file.getProperties().getContentLength());
        return new SourceReader() {
            @Override
            public long size() {
                return size;
            }

            /** One ranged Get File per call; the engine reads ranges of a large file in parallel through one reader. */
            @Override
            public int read(long position, ByteBuffer destination) {
                int length = (int) Math.min(destination.remaining(), size - position);
                if (length <= 0) {
                    return 0;
                }
                int before = destination.position();
                OutputStream into = new OutputStream() {
                    @Override
                    public void write(int b) {
                        destination.put((byte) b);
                    }

                    @Override
                    public void write(byte[] bytes, int offset, int count) {
                        if (count > destination.remaining()) {
                            throw new MoverException(ErrorCode.SOURCE_CHANGED, "file " + share.where(path) + " changed while it was read");
                        }
                        destination.put(bytes, offset, count);
                    }
                };
                share.call("read", path, 'r', () -> file.downloadWithResponse(into,
                        new ShareFileDownloadOptions().setRange(new ShareFileRange(position, position + length - 1)), null, Context.NONE));
                return destination.position() - before;
            }

            @Override
            public void close() {
                // nothing held between reads
            }
        };
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
