package io.mover.plugins.local;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.zip.CRC32C;

import io.mover.spi.ResumableWriter.Block;

import static java.util.Objects.requireNonNull;

/**
 * The record of a resumable temporary's written blocks: {@code <temporary>.journal}, an 8-byte magic then
 * 16 bytes per block ({@code u64 position, u32 length, u32 CRC32C}), appended after each write. It is never
 * flushed on its own: what a crash loses or tears is found when the partial is reopened, since every block
 * is re-read and checked against its CRC32C before it counts (a process kill loses nothing; a power loss may
 * lose the last writes of both files, which are then simply written again). Thread-safe.
 */
final class BlockJournal implements AutoCloseable {
    static final String SUFFIX = ".journal";
    private static final long MAGIC = 0x4d4f5645524a4e31L; // "MOVERJN1"
    private static final int RECORD = 16;
    /** A block longer than the engine's largest is not ours: the journal is not trusted. */
    private static final int MAX_BLOCK = 64 << 20;
    /** 4 Mi records: a 4 TiB file of 1 MiB blocks; a longer journal is not read (the file starts over). */
    private static final long MAX_JOURNAL = 8 + (long) RECORD * (4 << 20);

    private final Path file;
    private final FileChannel channel;
    private final ByteBuffer record = ByteBuffer.allocate(RECORD);

    private BlockJournal(Path file, FileChannel channel) {
        this.file = requireNonNull(file, "file is null");
        this.channel = requireNonNull(channel, "channel is null");
    }

    static Path of(Path temporary) {
        return temporary.resolveSibling(temporary.getFileName() + SUFFIX);
    }

    /** A new, empty journal (an old one at {@code file} is replaced) holding {@code blocks} already. */
    static BlockJournal create(Path file, List<Block> blocks) throws IOException {
        FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
        BlockJournal journal = new BlockJournal(file, channel);
        try {
            channel.write(ByteBuffer.allocate(8).putLong(0, MAGIC));
            for (Block block : blocks) {
                journal.record(block.position(), block.length(), block.crc32c());
            }
            return journal;
        }
        catch (IOException | RuntimeException e) {
            journal.close();
            throw e;
        }
    }

    /**
     * The blocks {@code journal} records that {@code data} still holds, in file order, each re-read and
     * checked against its CRC32C (a later record of a position replaces an earlier one); empty when the
     * journal is missing, foreign or unreadable.
     */
    static List<Block> verified(Path journal, Path data, long size) throws IOException {
        if (!Files.isRegularFile(journal) || !Files.isRegularFile(data) || Files.size(journal) < 8 || Files.size(journal) > MAX_JOURNAL) {
            return List.of();
        }
        ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(journal));
        if (bytes.getLong() != MAGIC) {
            return List.of();
        }
        TreeMap<Long, Block> latest = new TreeMap<>();
        while (bytes.remaining() >= RECORD) {
            long position = bytes.getLong();
            int length = bytes.getInt();
            int crc = bytes.getInt();
            if (position >= 0 && length > 0 && length <= MAX_BLOCK && position + length <= size) {
                latest.put(position, new Block(position, length, crc));
            }
        }
        List<Block> kept = new ArrayList<>();
        try (FileChannel channel = FileChannel.open(data, StandardOpenOption.READ)) {
            ByteBuffer buffer = ByteBuffer.allocateDirect((int) Math.min(MAX_BLOCK, latest.values().stream().mapToInt(Block::length).max().orElse(0)));
            long end = -1;
            for (Block block : latest.values()) {
                if (block.position() < end) {
                    continue; // overlaps the block before it (another block size): not counted, written again
                }
                buffer.clear().limit(block.length());
                while (buffer.hasRemaining() && channel.read(buffer, block.position() + buffer.position()) > 0) {
                    // reads until the block is whole or the file ends
                }
                if (buffer.hasRemaining()) {
                    continue;
                }
                CRC32C crc = new CRC32C();
                crc.update(buffer.flip());
                if ((int) crc.getValue() == block.crc32c()) {
                    kept.add(block);
                    end = block.end();
                }
            }
        }
        return List.copyOf(kept);
    }

    synchronized void record(long position, int length, int crc32c) throws IOException {
        record.clear();
        record.putLong(position).putInt(length).putInt(crc32c).flip();
        while (record.hasRemaining()) {
            channel.write(record, channel.size());
        }
    }

    @Override
    public void close() {
        try {
            channel.close();
        }
        catch (IOException e) {
            // nothing was lost that the next reopen does not check
        }
    }

    void delete() throws IOException {
        close();
        Files.deleteIfExists(file);
    }
}
