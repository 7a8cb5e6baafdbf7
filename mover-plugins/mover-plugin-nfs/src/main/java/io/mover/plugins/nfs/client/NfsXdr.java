package io.mover.plugins.nfs.client;

import io.mover.plugins.nfs.rpc.Xdr;
import io.netty.buffer.ByteBuf;

import java.time.Instant;
import java.util.Optional;
import java.util.OptionalInt;

/** XDR of the NFSv3 structures (RFC 1813 §2.5-2.6, §3.3) that several procedures share. */
final class NfsXdr {
    static final int MAX_NAME = 255;
    /** The longest link target mover reads (Linux's PATH_MAX). */
    static final int MAX_PATH = 4096;

    private NfsXdr() {
    }

    static void writeHandle(ByteBuf out, FileHandle handle) {
        Xdr.writeOpaque(out, handle.bytes());
    }

    static FileHandle readHandle(ByteBuf in) {
        byte[] bytes = Xdr.readOpaque(in, FileHandle.MAX_BYTES);
        if (bytes.length == 0) {
            throw new io.mover.plugins.nfs.rpc.XdrException("empty file handle");
        }
        return new FileHandle(bytes);
    }

    static void writeDirOp(ByteBuf out, FileHandle directory, String name) {
        writeHandle(out, directory);
        Xdr.writeString(out, name);
    }

    static Fattr readFattr(ByteBuf in) {
        int type = Xdr.readInt(in);
        int mode = Xdr.readInt(in) & 07777;
        Xdr.readInt(in); // nlink
        long uid = Xdr.readUnsignedInt(in);
        long gid = Xdr.readUnsignedInt(in);
        long size = Xdr.readLong(in);
        Xdr.readLong(in); // used
        Xdr.readLong(in); // rdev
        Xdr.readLong(in); // fsid
        long fileId = Xdr.readLong(in);
        readTime(in); // atime
        Instant mtime = readTime(in);
        readTime(in); // ctime
        return new Fattr(type, mode, uid, gid, size, fileId, mtime);
    }

    static Optional<Fattr> readPostOpAttr(ByteBuf in) {
        return Xdr.readBoolean(in) ? Optional.of(readFattr(in)) : Optional.empty();
    }

    static Optional<FileHandle> readPostOpHandle(ByteBuf in) {
        return Xdr.readBoolean(in) ? Optional.of(readHandle(in)) : Optional.empty();
    }

    static void skipWcc(ByteBuf in) {
        readWccAfter(in);
    }

    /** wcc_data: skips the attributes before the operation, returns those after it. */
    static Optional<Fattr> readWccAfter(ByteBuf in) {
        if (Xdr.readBoolean(in)) {
            Xdr.readLong(in); // size
            readTime(in);
            readTime(in);
        }
        return readPostOpAttr(in);
    }

    static Instant readTime(ByteBuf in) {
        long seconds = Xdr.readUnsignedInt(in);
        long nanos = Xdr.readUnsignedInt(in);
        return Instant.ofEpochSecond(seconds, Math.min(nanos, 999_999_999));
    }

    static void writeTime(ByteBuf out, Instant time) {
        out.writeInt((int) Math.max(0, Math.min(time.getEpochSecond(), 0xFFFF_FFFFL)));
        out.writeInt(time.getNano());
    }

    /** sattr3: sets the mode and the modification time when given, leaves everything else. */
    static void writeSattr(ByteBuf out, OptionalInt mode, Optional<Instant> mtime) {
        Xdr.writeBoolean(out, mode.isPresent());
        if (mode.isPresent()) {
            out.writeInt(mode.getAsInt() & 07777);
        }
        Xdr.writeBoolean(out, false); // uid
        Xdr.writeBoolean(out, false); // gid
        Xdr.writeBoolean(out, false); // size
        out.writeInt(0); // atime: don't change
        if (mtime.isPresent()) {
            out.writeInt(2); // SET_TO_CLIENT_TIME
            writeTime(out, mtime.get());
        }
        else {
            out.writeInt(0);
        }
    }
}
