package io.mover.plugins.local;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;

import io.mover.spi.Entry;
import io.mover.spi.ResumableWriter;

import static java.util.Objects.requireNonNull;

/**
 * A {@link LocalSinkWriter} whose temporary has a {@link BlockJournal}: committed or aborted, both go; suspended
 * (or killed), both stay for the next writer of the same key. Thread-safe.
 */
final class LocalResumableWriter implements ResumableWriter {
    private final LocalSinkWriter writer;
    private final BlockJournal journal;
    private final List<Block> kept;

    LocalResumableWriter(LocalSinkWriter writer, BlockJournal journal, List<Block> kept) {
        this.writer = requireNonNull(writer, "writer is null");
        this.journal = requireNonNull(journal, "journal is null");
        this.kept = List.copyOf(kept);
    }

    @Override
    public List<Block> kept() {
        return kept;
    }

    @Override
    public void write(long position, ByteBuffer source) {
        writer.write(position, source);
    }

    @Override
    public void write(long position, ByteBuffer source, int crc32c) {
        int length = source.remaining();
        writer.write(position, source);
        record(position, length, crc32c);
    }

    /** A block of zeros: as {@link LocalSinkWriter#writeZeros}, then recorded as any block. */
    @Override
    public void writeZeros(long position, int length, int crc32c) {
        writer.writeZeros(position, length);
        record(position, length, crc32c);
    }

    @Override
    public void writeZeros(long position, int length) {
        writer.writeZeros(position, length);
    }

    private void record(long position, int length, int crc32c) {
        try {
            journal.record(position, length, crc32c);
        }
        catch (IOException e) {
            // the block is written; unrecorded, a later resume merely writes it again
        }
    }

    @Override
    public Entry commit() {
        Entry committed = writer.commit();
        deleteJournal();
        return committed;
    }

    @Override
    public void abort() {
        try {
            writer.abort();
        }
        finally {
            deleteJournal();
        }
    }

    @Override
    public void suspend() {
        journal.close();
        writer.suspend();
    }

    private void deleteJournal() {
        try {
            journal.delete();
        }
        catch (IOException e) {
            // a journal without its temporary is removed by the next sweep of stale temporaries
        }
    }
}
