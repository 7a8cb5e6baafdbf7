package io.mover.plugins.tcp;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.OptionalInt;

import io.mover.spi.Attributes;
import io.mover.spi.Entry;
import io.mover.spi.EntryType;
import io.mover.spi.RelativePath;
import io.netty.buffer.ByteBuf;

/**
 * The protocol's constants and its field encodings (big-endian, strings as u16 length + UTF-8).
 * Every decode checks its bounds and throws {@link ProtocolException}, which closes the connection.
 */
final class Wire {
    /** 2: START_TLS, RESUME and KEPT (version 1 had neither TLS nor resume inside a file). */
    static final int VERSION = 2;
    /** The largest frame a receiver accepts after the handshake: a 32 MiB block, its header and fields. */
    static final int MAX_FRAME = (32 << 20) + 1024;
    /** Before authentication only small frames are accepted: nobody unauthenticated can make us buffer much. */
    static final int MAX_HANDSHAKE_FRAME = 512;
    static final int MAX_STRING = RelativePath.MAX_PATH_BYTES;
    static final int NONCE = 32;
    static final int SESSION = 16;
    static final int MAC = 32;
    static final int MAX_LISTING_ENTRIES = 512;

    static final byte HELLO = 0x01;
    static final byte AUTH = 0x02;
    static final byte WELCOME = 0x03;
    static final byte START_TLS = 0x04;
    static final byte STAT = 0x10;
    static final byte LIST = 0x11;
    static final byte MKDIRS = 0x12;
    static final byte DELETE = 0x13;
    static final byte CLEAN = 0x14;
    static final byte SET_ATTRIBUTES = 0x15;
    static final byte OPEN = 0x16;
    static final byte BLOCK = 0x17;
    static final byte COMMIT = 0x18;
    static final byte ABORT = 0x19;
    static final byte RESUME = 0x1A;
    /** Free space below a path (a receiver that says {@code FREE_SPACE} in its welcome answers it; see docs/peer-protocol.md). */
    static final byte SPACE = 0x1B;
    /** How long the receiver's connections had requests in hand (a receiver that says {@code LOAD} in its welcome answers it; see docs/peer-protocol.md). */
    static final byte LOAD = 0x1C;
    /** Whether the receiver runs on the sender's machine (a receiver that says {@code MACHINE} in its welcome answers it; see docs/peer-protocol.md). */
    static final byte MACHINE = 0x1D;
    static final byte DONE = 0x20;
    static final byte ENTRY = 0x21;
    static final byte LISTING = 0x22;
    static final byte FAILURE = 0x23;
    static final byte KEPT = 0x24;
    /** Blocks one KEPT reply lists at most (16 bytes each: a 2 TiB file of 1 MiB blocks); the others are sent again. */
    static final int MAX_KEPT = 1 << 21;

    private Wire() {}

    static void writeString(ByteBuf out, String value) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > MAX_STRING) {
            bytes = java.util.Arrays.copyOf(bytes, MAX_STRING);
        }
        out.writeShort(bytes.length).writeBytes(bytes);
    }

    static String readString(ByteBuf in) {
        int length = readableLength(in, in.readUnsignedShort());
        if (length > MAX_STRING) {
            throw new ProtocolException("a string of " + length + " bytes exceeds the limit of " + MAX_STRING);
        }
        String value = in.toString(in.readerIndex(), length, StandardCharsets.UTF_8);
        in.skipBytes(length);
        return value;
    }

    static byte[] readBytes(ByteBuf in, int length) {
        byte[] bytes = new byte[readableLength(in, length)];
        in.readBytes(bytes);
        return bytes;
    }

    static int readableLength(ByteBuf in, int length) {
        if (length < 0 || length > in.readableBytes()) {
            throw new ProtocolException("truncated message: " + length + " bytes announced, " + in.readableBytes() + " left");
        }
        return length;
    }

    static void need(ByteBuf in, int bytes) {
        readableLength(in, bytes);
    }

    static void writeEntry(ByteBuf out, Entry entry) {
        writeString(out, entry.path().toString());
        out.writeByte(entry.type().ordinal());
        out.writeLong(entry.size());
        out.writeLong(entry.lastModified().getEpochSecond());
        out.writeInt(entry.lastModified().getNano());
        out.writeInt(entry.attributes().posixMode().orElse(-1));
    }

    /** An entry; its path is checked by {@link RelativePath#of} (no {@code ..}, no absolute path, no NUL). */
    static Entry readEntry(ByteBuf in) {
        RelativePath path = RelativePath.of(readString(in));
        need(in, 1 + 8 + 8 + 4 + 4);
        int type = in.readUnsignedByte();
        if (type >= EntryType.values().length) {
            throw new ProtocolException("unknown entry type " + type);
        }
        long size = in.readLong();
        long seconds = in.readLong();
        int nanos = in.readInt();
        int mode = in.readInt();
        if (size < 0 || nanos < 0 || nanos > 999_999_999 || seconds < Instant.MIN.getEpochSecond() || seconds > Instant.MAX.getEpochSecond()) {
            throw new ProtocolException("entry " + path + " has an invalid size or time");
        }
        Attributes attributes = mode < 0 ? Attributes.NONE
                : new Attributes(OptionalInt.of(mode & 07777), java.util.Optional.empty(), java.util.Optional.empty(), java.util.Map.of(), java.util.Map.of());
        return new Entry(path, EntryType.values()[type], size, Instant.ofEpochSecond(seconds, nanos), attributes);
    }
}
