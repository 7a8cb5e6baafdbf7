package io.mover.plugins.nfs.client;

import io.mover.plugins.nfs.rpc.RpcClient;
import io.mover.plugins.nfs.rpc.Xdr;
import io.netty.buffer.ByteBuf;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static io.mover.plugins.nfs.client.NfsCalls.await;

/** MOUNT v3 EXPORT (procedure 5): the server's export list, to split a URI path into export and folder. */
public final class Exports {
    private static final int EXPORT = 5;
    private static final int MAX_PATH = 1024;

    private Exports() {
    }

    public static List<String> list(RpcClient mountd) {
        ByteBuf reply = await(mountd.call(EXPORT, out -> { }));
        try {
            List<String> exports = new ArrayList<>();
            for (int i = 0; i < 100_000 && Xdr.readBoolean(reply); i++) {
                exports.add(Xdr.readString(reply, MAX_PATH));
                for (int j = 0; j < 100_000 && Xdr.readBoolean(reply); j++) {
                    Xdr.readString(reply, MAX_PATH);
                }
            }
            return exports;
        }
        finally {
            reply.release();
        }
    }

    /** The longest export that is {@code path} or a folder above it. */
    public static Optional<String> longestPrefix(List<String> exports, String path) {
        String best = null;
        for (String export : exports) {
            String normalized = export.length() > 1 && export.endsWith("/") ? export.substring(0, export.length() - 1) : export;
            boolean matches = path.equals(normalized) || path.startsWith(normalized.equals("/") ? "/" : normalized + "/");
            if (matches && (best == null || normalized.length() > best.length())) {
                best = normalized;
            }
        }
        return Optional.ofNullable(best);
    }
}
