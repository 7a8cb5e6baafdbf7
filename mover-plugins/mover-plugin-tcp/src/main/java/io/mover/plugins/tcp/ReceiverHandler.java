package io.mover.plugins.tcp;

import java.net.SocketAddress;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

import io.mover.plugins.tcp.Message.Auth;
import io.mover.plugins.tcp.Message.Failure;
import io.mover.plugins.tcp.Message.Hello;
import io.mover.plugins.tcp.Message.Welcome;
import io.mover.spi.ErrorCode;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;

/**
 * One connection at the receiver: the handshake, then requests handed to worker threads (the sink's
 * calls block; the event loop never waits on a disk or a codec), replies written back as they finish.
 * Reading is on demand (AUTO_READ off): the next frames are read only while fewer than the window's
 * requests are in flight, so a fast sender cannot pile up buffers here; one that ignores the window is
 * closed. Not shared: one per connection, its fields touched on the event loop only.
 */
final class ReceiverHandler extends ChannelInboundHandlerAdapter {
    private final PeerServer server;
    private final FrameDecoder frames;
    private final byte[] nonce = Handshake.random(Wire.NONCE);
    private ReceiverSession session;
    private int inFlight;
    /** Since when this connection has had requests in hand (read, not yet answered); 0 while it has none. */
    private long busySince;
    private ScheduledFuture<?> handshakeDeadline;
    private boolean closing;
    private boolean authenticating;

    ReceiverHandler(PeerServer server, FrameDecoder frames) {
        this.server = server;
        this.frames = frames;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        ReceiverSettings settings = server.settings();
        ctx.writeAndFlush(new Hello(Wire.VERSION, nonce, Wire.MAX_FRAME, settings.window(), server.decoders().wireIds()));
        handshakeDeadline = ctx.executor().schedule(() -> close(ctx, "no authentication within " + settings.handshakeTimeout().toMillis() + " ms"),
                settings.handshakeTimeout().toMillis(), TimeUnit.MILLISECONDS);
        ctx.read();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (closing) {
                return;
            }
            if (!(msg instanceof Message message)) {
                throw new ProtocolException("unexpected " + msg.getClass().getSimpleName());
            }
            if (authenticating) {
                throw new ProtocolException("a message before WELCOME");
            }
            if (session == null) {
                authenticate(ctx, message);
                return;
            }
            if (++inFlight > server.settings().window()) {
                throw new ProtocolException("more than " + server.settings().window() + " requests in flight (the window announced in HELLO)");
            }
            if (inFlight == 1) {
                busySince = System.nanoTime();
            }
            ReceiverSession current = session;
            ReferenceCountUtil.retain(msg);
            try {
                server.workers().execute(() -> {
                    List<Message> replies = current.handle(message);
                    ctx.executor().execute(() -> replied(ctx, replies));
                });
            }
            catch (RejectedExecutionException e) {
                ReferenceCountUtil.release(msg);
                throw new ProtocolException("the receiver is closing");
            }
        }
        finally {
            ReferenceCountUtil.release(msg);
        }
    }

    private void replied(ChannelHandlerContext ctx, List<Message> replies) {
        inFlight--;
        countBusy(inFlight > 0);
        if (!ctx.channel().isActive()) {
            return;
        }
        for (Message reply : replies) {
            ctx.write(reply).addListener(ChannelFutureListener.FIRE_EXCEPTION_ON_FAILURE);
        }
        ctx.flush();
        if (inFlight < server.settings().window()) {
            ctx.read();
        }
    }

    /**
     * Counts the busy time up to now for the session (LOAD) at every reply, not only when the connection goes
     * idle: a connection that never does (its receiver is the slow end) must show as busy all along.
     */
    private void countBusy(boolean stillBusy) {
        if (busySince != 0) {
            long now = System.nanoTime();
            session.busy(now - busySince);
            busySince = stillBusy ? now : 0;
        }
    }

    private void authenticate(ChannelHandlerContext ctx, Message message) {
        if (!(message instanceof Auth auth)) {
            throw new ProtocolException("expected AUTH, got " + message.getClass().getSimpleName());
        }
        if (auth.version() != Wire.VERSION) {
            refuse(ctx, ErrorCode.UNSUPPORTED, "protocol version " + auth.version() + " is not supported; this receiver speaks version " + Wire.VERSION
                    + " (use the same mover release on both ends)");
            return;
        }
        byte[] token = server.settings().token();
        if (!Handshake.matches(Handshake.senderProof(token, nonce, auth.nonce(), auth.session()), auth.mac())) {
            refuse(ctx, ErrorCode.AUTHENTICATION_FAILED, "the token was refused: give the sender the receiver's token");
            return;
        }
        handshakeDeadline.cancel(false);
        authenticating = true;
        // joining opens the job's destination (disk work): done on a worker, answered on the event loop
        server.workers().execute(() -> {
            try {
                ReceiverSession joined = server.join(HexFormat.of().formatHex(auth.session()), auth.jobKey());
                ctx.executor().execute(() -> welcome(ctx, auth, joined));
            }
            catch (RuntimeException e) {
                ctx.executor().execute(() -> refuse(ctx, e instanceof io.mover.spi.MoverException m ? m.code() : ErrorCode.INTERNAL,
                        "cannot open the destination: " + e.getMessage()));
            }
        });
    }

    private void welcome(ChannelHandlerContext ctx, Auth auth, ReceiverSession joined) {
        session = joined;
        authenticating = false;
        if (!ctx.channel().isActive()) {
            server.leave(joined);
            return;
        }
        frames.authenticated();
        byte[] token = server.settings().token();
        ctx.writeAndFlush(new Welcome(Handshake.receiverProof(token, nonce, auth.nonce(), auth.session()), server.mtimePrecisionNanos(), server.flags()));
        server.log(System.Logger.Level.DEBUG, "connection from " + remote(ctx) + " joined session " + session.id() + " as stream " + auth.stream());
        ctx.read();
    }

    private void refuse(ChannelHandlerContext ctx, ErrorCode code, String reason) {
        closing = true;
        server.log(System.Logger.Level.WARNING, "closing connection from " + remote(ctx) + ": " + reason);
        // best effort: the reason goes out if the socket takes it now; the close does not wait for a peer that does not read
        ctx.writeAndFlush(new Failure(0, code.name(), reason));
        ctx.close();
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (!closing && !authenticating && inFlight < server.settings().window()) {
            ctx.read();
        }
    }

    /** A failed TLS handshake is logged with its reason, in one line, like any refused connection. */
    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event instanceof SslHandshakeCompletionEvent completion && !completion.isSuccess()) {
            Throwable cause = completion.cause();
            close(ctx, cause instanceof java.nio.channels.ClosedChannelException
                    ? "closed before the TLS handshake (a sender without TLS options?)"
                    : "TLS handshake failed: " + cause.getMessage());
        }
        ctx.fireUserEventTriggered(event);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        Throwable reason = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
        if (reason instanceof javax.net.ssl.SSLException) {
            close(ctx, "TLS: " + reason.getMessage());
            return;
        }
        String text = reason instanceof java.io.IOException ? "connection error: " + reason.getMessage() : reason.getMessage();
        close(ctx, text == null ? reason.toString() : text);
    }

    private void close(ChannelHandlerContext ctx, String reason) {
        if (closing) {
            return;
        }
        closing = true;
        server.log(System.Logger.Level.WARNING, "closing connection from " + remote(ctx) + ": " + reason);
        if (ctx.channel().isActive()) {
            ctx.writeAndFlush(new Failure(0, ErrorCode.INVALID_ARGUMENT.name(), "protocol error: " + reason));
        }
        ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (handshakeDeadline != null) {
            handshakeDeadline.cancel(false);
        }
        if (session != null) {
            countBusy(false);
            server.leave(session);
        }
        ctx.fireChannelInactive();
    }

    private static SocketAddress remote(ChannelHandlerContext ctx) {
        return ctx.channel().remoteAddress();
    }
}
