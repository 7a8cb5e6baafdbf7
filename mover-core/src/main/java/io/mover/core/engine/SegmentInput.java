package io.mover.core.engine;

import java.io.ByteArrayInputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;

/**
 * A catalog folder's segments ({@link CatalogFiles}) read positionally from the catalog's entries file, one after the
 * other, and decoded straight from a buffer of its own. Not a {@link DataInputStream} over a stream: that reads each
 * field through a call of the stream per field, and {@code readUTF} copies every name twice; decoding 100,000 entries
 * that way was 25 ms of a no-change sync's CPU. The buffer is the folder's size up to a segment's (grown only for a
 * field longer than that). Not thread-safe: one folder's reader.
 */
final class SegmentInput implements DataInput {
    private final FileChannel channel;
    private final long[] segments;
    private ByteBuffer buffer;
    private int segment;
    private long read;

    SegmentInput(FileChannel channel, long[] segments) {
        this.channel = channel;
        this.segments = segments;
        long total = 0;
        for (int i = 1; i < segments.length; i += 2) {
            total += segments[i];
        }
        this.buffer = ByteBuffer.allocate((int) Math.min(CatalogFiles.SEGMENT, Math.max(total, 1))).limit(0);
    }

    /** Whether every byte of the segments was read. */
    boolean atEnd() throws IOException {
        if (buffer.hasRemaining()) {
            return false;
        }
        skipReadSegments();
        return segment >= segments.length;
    }

    private void skipReadSegments() {
        while (segment < segments.length && read == segments[segment + 1]) { // bounded: one step per segment
            segment += 2;
            read = 0;
        }
    }

    /** The buffer, with {@code count} bytes readable at its position. */
    private ByteBuffer ready(int count) throws IOException {
        need(count);
        return buffer;
    }

    /** Makes {@code count} bytes readable in the buffer, reading on through the segments. */
    private void need(int count) throws IOException {
        if (buffer.remaining() >= count) {
            return;
        }
        if (count > buffer.capacity()) {
            buffer = ByteBuffer.allocate(Math.max(count, buffer.capacity() * 2)).put(buffer);
        }
        else {
            buffer.compact();
        }
        while (buffer.position() < count) { // bounded: each step reads bytes, or ends the segments and throws
            skipReadSegments();
            if (segment >= segments.length) {
                buffer.flip();
                throw new EOFException("a catalog entry goes past its folder's segments");
            }
            int want = (int) Math.min(buffer.remaining(), segments[segment + 1] - read);
            buffer.limit(buffer.position() + want);
            int got = channel.read(buffer, segments[segment] + read);
            buffer.limit(buffer.capacity());
            if (got <= 0) {
                buffer.flip();
                throw new EOFException("the catalog's entries end before a folder's segment does");
            }
            read += got;
        }
        buffer.flip();
    }

    @Override
    public void readFully(byte[] bytes) throws IOException {
        readFully(bytes, 0, bytes.length);
    }

    @Override
    public void readFully(byte[] bytes, int offset, int length) throws IOException {
        need(length);
        buffer.get(bytes, offset, length);
    }

    @Override
    public int skipBytes(int count) throws IOException {
        need(count);
        buffer.position(buffer.position() + count);
        return count;
    }

    @Override
    public boolean readBoolean() throws IOException {
        return readByte() != 0;
    }

    @Override
    public byte readByte() throws IOException {
        return ready(1).get();
    }

    @Override
    public int readUnsignedByte() throws IOException {
        return readByte() & 0xff;
    }

    @Override
    public short readShort() throws IOException {
        return ready(Short.BYTES).getShort();
    }

    @Override
    public int readUnsignedShort() throws IOException {
        return readShort() & 0xffff;
    }

    @Override
    public char readChar() throws IOException {
        return ready(Character.BYTES).getChar();
    }

    @Override
    public int readInt() throws IOException {
        return ready(Integer.BYTES).getInt();
    }

    @Override
    public long readLong() throws IOException {
        return ready(Long.BYTES).getLong();
    }

    @Override
    public float readFloat() throws IOException {
        return Float.intBitsToFloat(readInt());
    }

    @Override
    public double readDouble() throws IOException {
        return Double.longBitsToDouble(readLong());
    }

    @Override
    public String readLine() {
        throw new UnsupportedOperationException("a catalog has no lines");
    }

    /**
     * {@link DataInput#readUTF}'s modified UTF-8; an ASCII name (the usual one) is made from the buffer in one copy.
     * Bytes 1 to 127 are themselves in modified UTF-8 (it writes a NUL as two bytes), so ASCII decodes as Latin-1.
     */
    @Override
    public String readUTF() throws IOException {
        int length = readUnsignedShort();
        need(length);
        byte[] bytes = buffer.array();
        int start = buffer.arrayOffset() + buffer.position();
        boolean ascii = true;
        for (int i = start; i < start + length && ascii; i++) { // bounded: the string's bytes
            ascii = bytes[i] > 0;
        }
        buffer.position(buffer.position() + length);
        if (ascii) {
            return new String(bytes, start, length, StandardCharsets.ISO_8859_1);
        }
        byte[] prefixed = new byte[length + 2];
        prefixed[0] = (byte) (length >>> 8);
        prefixed[1] = (byte) length;
        System.arraycopy(bytes, start, prefixed, 2, length);
        return DataInputStream.readUTF(new DataInputStream(new ByteArrayInputStream(prefixed)));
    }
}
