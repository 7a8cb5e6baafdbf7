package io.mover.plugins.nfs.rpc;

import io.mover.spi.MoverException;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.DecoderException;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;

/**
 * The per-connection state: calls sent on this connection by XID. Matches each reply to its call;
 * a reply that is not an RPC reply, an oversize record or undecodable header closes the connection
 * (the peer is broken or hostile, and nothing later on this stream can be trusted). When the
 * connection ends, its unanswered calls go to {@code orphans}, which retransmits them elsewhere.
 *
 * <p>Not sharable; runs on the channel's event loop, except {@link #register} (any thread).
 */
final class RpcConnectionHandler extends SimpleChannelInboundHandler<ByteBuf> {
    private final Map<Integer, RpcCall> calls = new ConcurrentHashMap<>();
    private final BiConsumer<List<RpcCall>, String> orphans;
    private final String server;
    private volatile String closeReason;
    private volatile boolean inactive;

    RpcConnectionHandler(String server, BiConsumer<List<RpcCall>, String> orphans) {
        this.server = server;
        this.orphans = orphans;
    }

    /** Records a call about to be written on this connection; false when the connection already ended. */
    boolean register(RpcCall call) {
        calls.put(call.xid, call);
        if (inactive) {
            calls.remove(call.xid);
            return false;
        }
        return true;
    }

    void forget(RpcCall call) {
        calls.remove(call.xid, call);
    }

    int pending() {
        return calls.size();
    }

    @Override
    protected void channelRead0(ChannelHandlerContext context, ByteBuf record) {
        int xid;
        try {
            xid = RpcMessages.readReplyXid(record);
        }
        catch (XdrException e) {
            drop(context, "sent a message that is not an RPC reply (" + e.getMessage() + ")");
            return;
        }
        RpcCall call = calls.remove(xid);
        if (call == null) {
            return; // a late reply to a call that timed out and was answered on another connection
        }
        try {
            RpcMessages.readAcceptedHeader(record, call.describe());
            call.succeed(record.retainedSlice());
        }
        catch (MoverException e) {
            call.fail(e);
        }
        catch (XdrException e) {
            call.fail(RpcCall.lost(server + " sent a garbled reply to " + call.describe() + " (" + e.getMessage() + ")"));
            drop(context, "sent a garbled reply header (" + e.getMessage() + ")");
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
        Throwable reason = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
        drop(context, "broke the connection: " + reason.getMessage());
    }

    private void drop(ChannelHandlerContext context, String reason) {
        if (closeReason == null) {
            closeReason = reason;
        }
        context.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext context) {
        inactive = true;
        List<RpcCall> left = new ArrayList<>(calls.values());
        calls.clear();
        orphans.accept(left, closeReason == null ? "closed the connection" : closeReason);
        context.fireChannelInactive();
    }

    String closeReason() {
        return closeReason;
    }
}
