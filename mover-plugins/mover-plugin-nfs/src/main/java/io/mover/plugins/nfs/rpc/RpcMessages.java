package io.mover.plugins.nfs.rpc;

import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.netty.buffer.ByteBuf;

/** The ONC RPC v2 message header (RFC 5531 §9): calls out, replies in. */
final class RpcMessages {
    private static final int CALL = 0;
    private static final int REPLY = 1;
    private static final int RPC_VERSION = 2;
    private static final int MAX_VERIFIER = 400;

    private RpcMessages() {
    }

    /** Writes the call header after a 4-byte record mark placeholder; {@link #finishRecord} fills it in. */
    static void writeCallHeader(ByteBuf out, int xid, RpcProgram program, int procedure, AuthSys auth) {
        out.writeInt(0); // record mark, set by finishRecord
        out.writeInt(xid);
        out.writeInt(CALL);
        out.writeInt(RPC_VERSION);
        out.writeInt(program.number());
        out.writeInt(program.version());
        out.writeInt(procedure);
        auth.write(out);
        out.writeInt(0); // verifier AUTH_NONE
        out.writeInt(0);
    }

    static void finishRecord(ByteBuf record) {
        int mark = record.writerIndex() - record.readerIndex() - 4;
        record.setInt(record.readerIndex(), 0x8000_0000 | mark);
    }

    /** The XID of a reply record, or an {@link XdrException} when it is not a reply at all. */
    static int readReplyXid(ByteBuf record) {
        int xid = Xdr.readInt(record);
        int type = Xdr.readInt(record);
        if (type != REPLY) {
            throw new XdrException("message type " + type + " where a reply was expected");
        }
        return xid;
    }

    /**
     * Reads the rest of the reply header. Returns normally when the call was accepted and succeeded (the
     * buffer then sits at the procedure's results); throws the server's refusal as a {@link MoverException};
     * throws {@link XdrException} for a header that makes no sense.
     */
    static void readAcceptedHeader(ByteBuf record, String call) {
        int replyStatus = Xdr.readInt(record);
        if (replyStatus == 1) {
            int rejectStatus = Xdr.readInt(record);
            if (rejectStatus == 0) {
                throw new MoverException(ErrorCode.UNSUPPORTED, "the server refused " + call + ": RPC version mismatch (supports " +
                        Xdr.readInt(record) + " to " + Xdr.readInt(record) + ")");
            }
            if (rejectStatus == 1) {
                int authStatus = Xdr.readInt(record);
                throw new MoverException(ErrorCode.PERMISSION_DENIED, "the server refused the AUTH_SYS credentials for " + call +
                        " (auth_stat " + authStatus + "); check the export's client list and security flavours");
            }
            throw new XdrException("reject status " + rejectStatus);
        }
        if (replyStatus != 0) {
            throw new XdrException("reply status " + replyStatus);
        }
        Xdr.readInt(record); // verifier flavour
        Xdr.readOpaque(record, MAX_VERIFIER);
        int acceptStatus = Xdr.readInt(record);
        switch (acceptStatus) {
            case 0 -> {
            }
            case 1 -> throw new MoverException(ErrorCode.UNSUPPORTED, "the server does not offer " + call + " (program unavailable)");
            case 2 -> throw new MoverException(ErrorCode.UNSUPPORTED, "the server does not offer " + call + " (it supports versions " +
                    Xdr.readInt(record) + " to " + Xdr.readInt(record) + ")");
            case 3 -> throw new MoverException(ErrorCode.UNSUPPORTED, "the server does not offer " + call + " (procedure unavailable)");
            case 4 -> throw new MoverException(ErrorCode.INTERNAL, "the server could not decode the arguments of " + call);
            case 5 -> throw new MoverException(ErrorCode.IO_ERROR, "the server failed " + call + " (system error)");
            default -> throw new XdrException("accept status " + acceptStatus);
        }
    }
}
