package io.mover.plugins.nfs.client;

import io.mover.plugins.nfs.rpc.RpcClient;
import io.mover.plugins.nfs.rpc.Xdr;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.netty.buffer.ByteBuf;

import static io.mover.plugins.nfs.client.NfsCalls.await;

/** MOUNT v3 (RFC 1813 appendix I) and the portmapper's GETPORT (RFC 1833), both over an {@link RpcClient}. */
public final class Mount {
    private static final int MNT = 1;
    private static final int GETPORT = 3;
    private static final int TCP = 6;

    private Mount() {
    }

    /** The TCP port the portmapper at the other end of {@code portmapper} gives for a program and version; 0 when none. */
    public static int port(RpcClient portmapper, int program, int version) {
        ByteBuf reply = await(portmapper.call(GETPORT, out -> {
            out.writeInt(program);
            out.writeInt(version);
            out.writeInt(TCP);
            out.writeInt(0);
        }));
        try {
            return (int) Xdr.readUnsignedInt(reply);
        }
        finally {
            reply.release();
        }
    }

    /** The root handle of an export; a refusal is one line naming server, export and reason. */
    public static FileHandle mount(RpcClient mountd, String export) {
        ByteBuf reply = await(mountd.call(MNT, out -> Xdr.writeString(out, export)));
        try {
            int status = Xdr.readInt(reply);
            if (status != 0) {
                String what = "mount of " + export + " on " + mountd.server() + " refused";
                MoverException mapped = NfsStatus.error(status, what);
                throw new MoverException(mapped.code() == ErrorCode.NOT_FOUND ? ErrorCode.NOT_FOUND : mapped.code(),
                        mapped.getMessage() + (status == 2 ? "; check the export name (the server's export list)" : ""));
            }
            return NfsXdr.readHandle(reply);
        }
        finally {
            reply.release();
        }
    }
}
