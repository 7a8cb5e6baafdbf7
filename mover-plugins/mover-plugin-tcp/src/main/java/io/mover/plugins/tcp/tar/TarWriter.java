package io.mover.plugins.tcp.tar;

import java.nio.ByteBuffer;

import io.mover.spi.BlockHeader;
import io.mover.spi.EncodedBlockWriter;
import io.mover.spi.Entry;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.SinkWriter;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;

import static java.util.Objects.requireNonNull;

/**
 * One file as one tar entry, placed after every entry created before it ({@link TarEntries}).
 * The engine hands it raw blocks as an {@link EncodedBlockWriter} (the sink's far end decodes no codec),
 * which meters the call as SEND: the copy into the stream's buffer, and the wait while the buffer is full.
 * Thread-safe as {@link SinkWriter} requires.
 */
final class TarWriter implements SinkWriter, EncodedBlockWriter {
    private final TarEntries entries;
    private final TarEntries.Pending entry;
    private final Entry committed;

    TarWriter(TarEntries entries, TarArchiveEntry header, Entry committed) {
        this.entries = requireNonNull(entries, "entries is null");
        this.committed = requireNonNull(committed, "committed is null");
        this.entry = entries.open(header);
    }

    @Override
    public void write(long position, ByteBuffer source) {
        int length = source.remaining();
        if (length == 0) {
            return;
        }
        if (position < 0 || position + length > entry.size) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "a write of " + length + " bytes at " + position + " goes beyond the size of "
                    + entry.name + " (" + entry.size + " bytes) announced in its tar header");
        }
        entries.write(entry, position, source);
    }

    @Override
    public void writeEncoded(long position, BlockHeader block, ByteBuffer payload) {
        if (block.codecId() != BlockHeader.RAW) {
            // the sink announced that it decodes nothing, so the engine only sends raw blocks
            throw new MoverException(ErrorCode.INTERNAL, "a tar stream takes raw blocks only, got codec id " + block.codecId());
        }
        write(position, payload);
    }

    @Override
    public Entry commit() {
        entries.commit(entry);
        return committed;
    }

    @Override
    public void abort() {
        entries.abort(entry);
    }

    /** Whether its header went out, after which an abort breaks the stream. */
    boolean started() {
        return entries.started(entry);
    }
}
