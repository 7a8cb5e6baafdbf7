package io.mover.plugins.tcp.tar;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;

import io.airlift.compress.v3.MalformedInputException;
import io.airlift.compress.v3.lz4.Lz4Decompressor;

import org.apache.commons.codec.digest.XXHash32;
import org.apache.commons.compress.compressors.lz4.FramedLZ4CompressorInputStream;

import static java.util.Objects.requireNonNull;

/**
 * Reads a sequence of LZ4 frames (the LZ4 frame format, as {@code lz4} writes it) with aircompressor's
 * block decoder, native when it loads: Commons Compress's reader does the same in Java at a few tens of
 * MB/s, slower than the links this runs on. Handles what the {@code lz4} tool writes by default and with
 * its options: independent blocks up to 4 MiB, stored blocks, block and content checksums (checked), the
 * content size, skippable frames, frames one after another. A frame of linked blocks ({@code lz4 -BD}),
 * whose blocks refer back into earlier ones, is handed whole to Commons Compress's reader, from its first
 * byte, with everything after it. Not thread-safe.
 */
final class Lz4FrameInputStream extends InputStream {
    private static final int MAGIC = 0x184D2204;
    private static final int SKIPPABLE_MASK = 0xFFFFFFF0;
    private static final int SKIPPABLE_MAGIC = 0x184D2A50;
    private static final int MAX_BLOCK = 4 << 20;

    private final InputStream in;
    private final Lz4Decompressor decompressor = Lz4Decompressor.create();
    private final byte[] compressed = new byte[MAX_BLOCK];
    private final byte[] block = new byte[MAX_BLOCK];
    private final XXHash32 contentHash = new XXHash32();
    private InputStream linked;
    private boolean inFrame;
    private boolean blockChecksums;
    private boolean contentChecksum;
    private int maxBlock;
    private int position;
    private int limit;

    Lz4FrameInputStream(InputStream in) {
        this.in = requireNonNull(in, "in is null");
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] target, int offset, int length) throws IOException {
        if (length == 0) {
            return 0;
        }
        while (position == limit) {
            if (linked != null) {
                return linked.read(target, offset, length);
            }
            if (!nextBlock()) {
                return -1;
            }
        }
        int n = Math.min(length, limit - position);
        System.arraycopy(block, position, target, offset, n);
        position += n;
        return n;
    }

    /** Decodes the next block into {@link #block}; false at the clean end of the stream (after a whole frame). */
    private boolean nextBlock() throws IOException {
        if (!inFrame && !frameHeader()) {
            return false;
        }
        if (linked != null) {
            return true;
        }
        int size = readInt();
        if (size == 0) {
            inFrame = false;
            if (contentChecksum && readInt() != (int) contentHash.getValue()) {
                throw new IOException("LZ4 content checksum mismatch: the stream is corrupt");
            }
            return true;
        }
        boolean stored = size < 0;
        size &= 0x7FFFFFFF;
        if (size > maxBlock) {
            throw new IOException("LZ4 block of " + size + " bytes exceeds the frame's maximum of " + maxBlock);
        }
        readFully(compressed, size);
        if (blockChecksums) {
            XXHash32 hash = new XXHash32();
            hash.update(compressed, 0, size);
            if (readInt() != (int) hash.getValue()) {
                throw new IOException("LZ4 block checksum mismatch: the stream is corrupt");
            }
        }
        if (stored) {
            System.arraycopy(compressed, 0, block, 0, size);
            limit = size;
        }
        else {
            try {
                limit = decompressor.decompress(compressed, 0, size, block, 0, maxBlock);
            }
            catch (MalformedInputException e) {
                throw new IOException("corrupt LZ4 block: " + e.getMessage(), e);
            }
        }
        position = 0;
        if (contentChecksum) {
            contentHash.update(block, 0, limit);
        }
        return true;
    }

    /**
     * Reads the next frame's header, skipping skippable frames; false at the end of the stream. A frame of
     * linked blocks is handed to Commons Compress from its first byte.
     */
    private boolean frameHeader() throws IOException {
        while (true) {
            int first = in.read();
            if (first < 0) {
                return false;
            }
            int magic = first | readByte() << 8 | readByte() << 16 | readByte() << 24;
            if ((magic & SKIPPABLE_MASK) == SKIPPABLE_MAGIC) {
                long skip = readInt() & 0xFFFFFFFFL;
                in.skipNBytes(skip);
                continue;
            }
            if (magic != MAGIC) {
                throw new IOException("not an LZ4 frame (magic " + Integer.toHexString(magic) + ")");
            }
            ByteArrayOutputStream header = new ByteArrayOutputStream();
            int flags = readByte();
            int descriptor = readByte();
            header.write(flags);
            header.write(descriptor);
            if (flags >> 6 != 1) {
                throw new IOException("unsupported LZ4 frame version " + (flags >> 6));
            }
            if ((flags & 0x08) != 0) {
                header.write(in.readNBytes(8), 0, 8);
            }
            if ((flags & 0x01) != 0) {
                throw new IOException("LZ4 frames with a dictionary are not supported");
            }
            int checksum = readByte();
            XXHash32 hash = new XXHash32();
            hash.update(header.toByteArray(), 0, header.size());
            if (((hash.getValue() >> 8) & 0xFF) != checksum) {
                throw new IOException("LZ4 frame header checksum mismatch: the stream is corrupt");
            }
            if ((flags & 0x20) == 0) {
                // linked blocks: Commons Compress keeps the window they refer to
                ByteArrayOutputStream whole = new ByteArrayOutputStream();
                whole.write(new byte[] {0x04, 0x22, 0x4D, 0x18});
                header.writeTo(whole);
                whole.write(checksum);
                linked = new FramedLZ4CompressorInputStream(new SequenceInputStream(new ByteArrayInputStream(whole.toByteArray()), in), true);
                return true;
            }
            blockChecksums = (flags & 0x10) != 0;
            contentChecksum = (flags & 0x04) != 0;
            int sizeId = (descriptor >> 4) & 0x07;
            if (sizeId < 4) {
                throw new IOException("invalid LZ4 block size id " + sizeId);
            }
            maxBlock = 1 << (8 + 2 * sizeId);
            contentHash.reset();
            inFrame = true;
            return true;
        }
    }

    private int readByte() throws IOException {
        int b = in.read();
        if (b < 0) {
            throw new EOFException("the LZ4 stream ended inside a frame");
        }
        return b;
    }

    private int readInt() throws IOException {
        return readByte() | readByte() << 8 | readByte() << 16 | readByte() << 24;
    }

    private void readFully(byte[] target, int length) throws IOException {
        if (in.readNBytes(target, 0, length) != length) {
            throw new EOFException("the LZ4 stream ended inside a block");
        }
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
