package io.mover.plugins.tcp;

import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.zip.CRC32C;

import io.mover.spi.BlockHeader;
import io.mover.spi.Codec;
import io.mover.spi.CodecFactory;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.ZeroBlocks;
import io.netty.buffer.ByteBuf;

import static java.util.Objects.requireNonNull;

/**
 * The receiver's DECODE stage: decompresses a block with the codec its header names and checks its
 * CRC32C. Codec instances keep scratch state, so each is used by one thread at a time and reused.
 * Thread-safe. Runs on worker threads, never on an event loop.
 */
final class Decoders {
    /** The engine's largest block (32 MiB, its {@code --block-size} limit). */
    static final int MAX_RAW_BLOCK = 32 << 20;

    private final Map<Byte, CodecFactory> factories = new ConcurrentHashMap<>();
    private final Map<Byte, Queue<Codec>> idle = new ConcurrentHashMap<>();

    private final BlockBuffers buffers;
    private final boolean zeroBlocks;

    Decoders(Collection<CodecFactory> codecs) {
        this(codecs, new BlockBuffers(0), true);
    }

    /**
     * @param buffers where decoded blocks go (the receiver's, which keeps released ones for reuse)
     * @param zeroBlocks whether blocks of zeros ({@link BlockHeader#ZEROS}) are offered and taken
     */
    Decoders(Collection<CodecFactory> codecs, BlockBuffers buffers, boolean zeroBlocks) {
        this.buffers = requireNonNull(buffers, "buffers is null");
        this.zeroBlocks = zeroBlocks;
        for (CodecFactory factory : codecs) {
            factories.putIfAbsent(factory.wireId(), factory);
        }
    }

    /**
     * The wire ids offered in the handshake: raw is implicit; blocks of zeros are offered as a codec is, so a
     * sender sends them only to a receiver that lists them (an older one does not, and gets bytes).
     */
    byte[] wireIds() {
        byte[] ids = new byte[factories.size() + (zeroBlocks ? 1 : 0)];
        int i = 0;
        for (Byte id : factories.keySet()) {
            ids[i++] = id;
        }
        if (zeroBlocks) {
            ids[i] = BlockHeader.ZEROS;
        }
        return ids;
    }

    /**
     * Checks a block of zeros before its zeros are written: offered, within the limit every block has, and its
     * CRC32C that of its length in zeros. Costs no pass over any bytes.
     *
     * @throws MoverException {@link ErrorCode#CHECKSUM_MISMATCH} when it is not one this receiver takes
     */
    void checkZeros(BlockHeader header) {
        if (!zeroBlocks) {
            throw new MoverException(ErrorCode.CHECKSUM_MISMATCH, "a block of zeros (codec id " + BlockHeader.ZEROS + "), which this receiver did not offer");
        }
        checkRawLength(header);
        ZeroBlocks.check(header);
    }

    private static void checkRawLength(BlockHeader header) {
        if (header.rawLength() < 0 || header.rawLength() > MAX_RAW_BLOCK) {
            // checked before allocating: a sender must not make the receiver reserve memory it merely declares
            throw new MoverException(ErrorCode.CHECKSUM_MISMATCH, "a block declares " + header.rawLength() + " raw bytes; blocks hold at most "
                    + MAX_RAW_BLOCK);
        }
    }

    /**
     * The raw bytes of a block, checked against its CRC32C: a retained duplicate of {@code payload} for a raw
     * block, otherwise a direct buffer holding the decompressed bytes. The caller releases what it gets. A block of
     * zeros is not decoded: the session writes it after {@link #checkZeros}.
     * Direct, so the sink's positional write goes to the kernel without a copy, and reused ({@link BlockBuffers}):
     * a fresh heap array per block cost the receiver an allocation, a zeroing and a copy into a temporary direct
     * buffer per MiB.
     *
     * @throws MoverException {@link ErrorCode#CHECKSUM_MISMATCH} for an unknown codec, a bad length or a wrong CRC32C
     */
    ByteBuf decode(BlockHeader header, ByteBuf payload) {
        if (header.codecId() == BlockHeader.RAW) {
            checkCrc(header, payload.nioBuffer());
            return payload.retainedDuplicate();
        }
        CodecFactory factory = factories.get(header.codecId());
        if (factory == null) {
            throw new MoverException(ErrorCode.CHECKSUM_MISMATCH, "block encoded with codec id " + header.codecId() + ", which this receiver does not have");
        }
        checkRawLength(header);
        Queue<Codec> pool = idle.computeIfAbsent(header.codecId(), id -> new ConcurrentLinkedQueue<>());
        Codec codec = pool.poll();
        if (codec == null) {
            codec = factory.create(factory.defaultLevel());
        }
        ByteBuf raw = buffers.allocate(header.rawLength());
        try {
            int written = codec.decompress(payload.nioBuffer(), raw.nioBuffer(0, header.rawLength()), header.rawLength());
            if (written != header.rawLength()) {
                throw new MoverException(ErrorCode.CHECKSUM_MISMATCH, "block decoded to " + written + " bytes, header says " + header.rawLength());
            }
            raw.writerIndex(written);
            checkCrc(header, raw.nioBuffer());
            return raw;
        }
        catch (RuntimeException e) {
            raw.release();
            if (e instanceof MoverException mover) {
                throw mover;
            }
            throw new MoverException(ErrorCode.CHECKSUM_MISMATCH, "a corrupt " + factory.name() + " block: " + e.getMessage());
        }
        finally {
            pool.add(codec);
        }
    }

    private static void checkCrc(BlockHeader header, ByteBuffer raw) {
        CRC32C crc = new CRC32C();
        crc.update(raw);
        if ((int) crc.getValue() != header.crc32c()) {
            throw new MoverException(ErrorCode.CHECKSUM_MISMATCH,
                    String.format("block checksum mismatch (CRC32C %08x, expected %08x)", (int) crc.getValue(), header.crc32c()));
        }
    }
}
