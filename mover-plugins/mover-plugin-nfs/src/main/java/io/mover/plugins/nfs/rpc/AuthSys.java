package io.mover.plugins.nfs.rpc;

import io.netty.buffer.ByteBuf;

import static java.util.Objects.requireNonNull;

/**
 * AUTH_SYS credentials (RFC 5531 appendix A): the uid and gid the server checks permissions against.
 * No secret is involved; the server trusts the client's word, which is why exports restrict clients by address.
 */
public record AuthSys(int uid, int gid, String machineName) {
    static final int FLAVOR = 1;

    public AuthSys {
        requireNonNull(machineName, "machineName is null");
        if (uid < 0 || gid < 0) {
            throw new IllegalArgumentException("uid and gid must not be negative: " + uid + "/" + gid);
        }
    }

    void write(ByteBuf out) {
        out.writeInt(FLAVOR);
        int lengthIndex = out.writerIndex();
        out.writeInt(0);
        int start = out.writerIndex();
        out.writeInt(0); // stamp: unused by servers
        Xdr.writeString(out, machineName);
        out.writeInt(uid);
        out.writeInt(gid);
        out.writeInt(1); // the primary group again as the one supplementary group
        out.writeInt(gid);
        out.setInt(lengthIndex, out.writerIndex() - start);
    }
}
