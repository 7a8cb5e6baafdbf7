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
 * One file as one tar entry. Its header goes out with its first byte (or at commit for an empty file),
 * when its turn comes; {@link #commit()} returns once the connection took the entry's last byte. The
 * engine hands it raw blocks as an {@link EncodedBlockWriter} (the sink's far end decodes nothing, so the
 * engine's codec is none), which meters the call as SEND. Thread-safe as {@link SinkWriter} requires.
 */
final class TarWriter implements SinkWriter, EncodedBlockWriter {
    private final TarStream stream;
    private final long ticket;
    private final TarStream.Turn turn;
    private final TarArchiveEntry header;
    private final Entry committed;
    /** Whether the header went out; touched by the turn holder only. */
    private boolean headerSent;

    TarWriter(TarStream stream, TarArchiveEntry header, Entry committed) {
        this.stream = requireNonNull(stream, "stream is null");
        this.header = requireNonNull(header, "header is null");
        this.committed = requireNonNull(committed, "committed is null");
        this.turn = new TarStream.Turn(header.getName());
        this.ticket = stream.ticket();
    }

    @Override
    public void write(long position, ByteBuffer source) {
        int length = source.remaining();
        if (length == 0) {
            return;
        }
        if (position + length > header.getSize()) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "a write of " + length + " bytes at " + position + " goes beyond the size of "
                    + header.getName() + " (" + header.getSize() + " bytes) announced in its tar header");
        }
        stream.awaitTurn(ticket, position, turn);
        sendHeader();
        stream.write(turn.name, source);
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
        long written = stream.awaitTurn(ticket, TarStream.ANY, turn);
        if (written != header.getSize()) {
            // the header announced the size: an entry cut short would shift every later one
            throw stream.fail(turn.name + " was committed with " + written + " of its " + header.getSize() + " bytes", null);
        }
        sendHeader();
        long end = stream.closeEntry(turn.name);
        stream.finished(ticket, turn);
        stream.awaitSent(turn.name, end);
        return committed;
    }

    @Override
    public void abort() {
        stream.abort(ticket, turn);
    }

    private void sendHeader() {
        if (!headerSent) {
            stream.putHeader(header);
            headerSent = true;
        }
    }
}
