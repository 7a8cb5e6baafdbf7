package io.mover.core.engine;

import java.nio.ByteBuffer;

import io.mover.core.codec.BlockCodec;
import io.mover.core.codec.BlockCodec.EncodedBlock;
import io.mover.spi.BlockHeader;
import io.mover.spi.EncodedBlockWriter;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.SinkWriter;
import io.mover.spi.SourceReader;
import io.mover.spi.ZeroBlocks;

/**
 * One block of one file through READ → ENCODE → SEND → DECODE → WRITE, each stage metered, with a buffer
 * slot from the job's pool and a codec from its set, both given back whatever happens. Used by the
 * file's ranges concurrently: it holds no state of its own beyond the file's block checksums.
 */
final class BlockMove {
    private final TransferRun run;
    /** Block checksums by block index, for {@code --verify}; null without it. */
    private final int[] blockCrcs;

    BlockMove(TransferRun run, int[] blockCrcs) {
        this.run = run;
        this.blockCrcs = blockCrcs;
    }

    /** Moves the block at {@code position}; returns its length. {@code reader} and {@code writer} are the file's, open. */
    int move(SourceReader reader, SinkWriter writer, long position, int length) {
        long waitStart = System.nanoTime();
        BufferPool.Slot slot = run.pool().acquire();
        run.meter(Stage.READ).waited(waitStart);
        BlockCodec codec = run.codecs().borrow();
        try {
            ByteBuffer raw = slot.raw();
            raw.clear().limit(length);
            long start = System.nanoTime();
            int read = reader.read(position, raw);
            run.meter(Stage.READ).busy(start, read);
            if (read != length) {
                throw new MoverException(ErrorCode.SOURCE_CHANGED, "file shrank while it was read (" + read + " of " + length + " bytes at offset " + position + ")");
            }
            raw.flip();

            start = System.nanoTime();
            // zeros first: a block of zeros is neither checksummed nor compressed (its CRC32C follows from its length)
            boolean zeros = codec.zeros(raw);
            // computed once: it proves a block the writer kept is the source's, and it heads the encoded block
            int crc = zeros ? ZeroBlocks.crc32c(length) : BlockCodec.crc32c(raw);
            if (writer.holds(position, length, crc)) {
                run.meter(Stage.ENCODE).busy(start, 0);
                return kept(position, length, crc);
            }
            EncodedBlock encoded = codec.encode(raw, slot.encoded(), crc, zeros);
            run.meter(Stage.ENCODE).busy(start, length);

            if (writer instanceof EncodedBlockWriter link) {
                return sendEncoded(link, position, length, encoded);
            }

            start = System.nanoTime();
            EncodedBlock received = run.transport().send(encoded);
            run.meter(Stage.SEND).busy(start, received.payload().remaining() + BlockHeader.LENGTH);

            start = System.nanoTime();
            ByteBuffer decoded = codec.decode(received, raw);
            run.meter(Stage.DECODE).busy(start, length);
            remember(position, received.header().crc32c());

            run.throttle(length);
            start = System.nanoTime();
            if (received.header().codecId() == BlockHeader.ZEROS) {
                writer.writeZeros(position, length);
            }
            else {
                writer.write(position, decoded);
            }
            run.meter(Stage.WRITE).busy(start, length);
            run.counters().bytesMoved.add(length);
            return length;
        }
        finally {
            run.codecs().giveBack(codec);
            run.pool().release(slot);
        }
    }

    /**
     * The writer already holds these bytes (a partial an earlier run left, checked against the source's
     * CRC32C just now): nothing to encode, send or write; the block counts as moved.
     */
    private int kept(long position, int length, int crc) {
        remember(position, crc);
        run.counters().bytesMoved.add(length);
        return length;
    }

    /**
     * The writer's far end decodes (a TCP peer): the encoded block crosses the link as it is, and the
     * far end checks its CRC32C; DECODE and WRITE happen there.
     */
    private int sendEncoded(EncodedBlockWriter link, long position, int length, EncodedBlock encoded) {
        remember(position, encoded.header().crc32c());
        run.throttle(length);
        long start = System.nanoTime();
        link.writeEncoded(position, encoded.header(), encoded.payload());
        run.meter(Stage.SEND).busy(start, encoded.header().encodedLength() + BlockHeader.LENGTH);
        run.counters().bytesMoved.add(length);
        return length;
    }

    private void remember(long position, int crc) {
        if (blockCrcs != null) {
            blockCrcs[(int) (position / run.options().blockSize())] = crc;
        }
    }
}
