package io.mover.plugins.nfs.rpc;

import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;

/**
 * XDR (RFC 4506) on Netty buffers: big-endian 4-byte units, opaque data and strings padded to a
 * multiple of four. Readers check every declared length against a limit and against the bytes
 * present, so a hostile or broken reply raises {@link XdrException} instead of allocating at will.
 */
public final class Xdr {
    private Xdr() {
    }

    public static void writeBoolean(ByteBuf out, boolean value) {
        out.writeInt(value ? 1 : 0);
    }

    public static void writeOpaque(ByteBuf out, byte[] data) {
        out.writeInt(data.length);
        out.writeBytes(data);
        out.writeZero(padding(data.length));
    }

    /** Variable-length opaque data from another buffer (WRITE payloads), without an intermediate copy. */
    public static void writeOpaque(ByteBuf out, ByteBuf data) {
        int length = data.readableBytes();
        out.writeInt(length);
        out.writeBytes(data, data.readerIndex(), length);
        out.writeZero(padding(length));
    }

    public static void writeString(ByteBuf out, String value) {
        writeOpaque(out, value.getBytes(StandardCharsets.UTF_8));
    }

    public static boolean readBoolean(ByteBuf in) {
        int value = readInt(in);
        if (value != 0 && value != 1) {
            throw new XdrException("boolean is " + value);
        }
        return value == 1;
    }

    public static int readInt(ByteBuf in) {
        need(in, 4);
        return in.readInt();
    }

    public static long readUnsignedInt(ByteBuf in) {
        need(in, 4);
        return in.readUnsignedInt();
    }

    public static long readLong(ByteBuf in) {
        need(in, 8);
        return in.readLong();
    }

    public static byte[] readOpaque(ByteBuf in, int maxLength) {
        int length = readLength(in, maxLength);
        byte[] data = new byte[length];
        in.readBytes(data);
        in.skipBytes(padding(length));
        return data;
    }

    public static byte[] readFixedOpaque(ByteBuf in, int length) {
        need(in, length);
        byte[] data = new byte[length];
        in.readBytes(data);
        return data;
    }

    /** Opaque data as a retained slice of {@code in} (READ payloads), without a copy; the caller releases it. */
    public static ByteBuf readOpaqueRetainedSlice(ByteBuf in, int maxLength) {
        int length = readLength(in, maxLength);
        ByteBuf slice = in.readRetainedSlice(length);
        in.skipBytes(padding(length));
        return slice;
    }

    public static String readString(ByteBuf in, int maxLength) {
        return new String(readOpaque(in, maxLength), StandardCharsets.UTF_8);
    }

    private static int readLength(ByteBuf in, int maxLength) {
        long length = readUnsignedInt(in);
        if (length > maxLength) {
            throw new XdrException("opaque length " + length + " exceeds " + maxLength);
        }
        need(in, (int) length + padding((int) length));
        return (int) length;
    }

    public static int padding(int length) {
        return (4 - (length & 3)) & 3;
    }

    private static void need(ByteBuf in, int bytes) {
        if (in.readableBytes() < bytes) {
            throw new XdrException("needs " + bytes + " bytes, " + in.readableBytes() + " left");
        }
    }
}
