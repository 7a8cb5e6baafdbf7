package io.mover.plugins.tcp;

import java.util.ArrayList;
import java.util.List;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * The receiver's first handler when it runs TLS: sends the one plain-text frame, START_TLS, straight to
 * the socket (it sits in front of the {@code SslHandler}), then leaves the pipeline. A sender with TLS
 * answers with its TLS handshake; a sender without TLS reads START_TLS and says in one line that the
 * receiver needs TLS, instead of both ends waiting for a first message that never comes.
 */
final class TlsAnnouncer extends ChannelInboundHandlerAdapter {
    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        List<Object> frame = new ArrayList<>(1);
        MessageEncoder.encode(ctx.alloc(), new Message.StartTls(Wire.VERSION), frame);
        ctx.writeAndFlush((ByteBuf) frame.getFirst());
        // on to the SslHandler (it waits for the sender's ClientHello) and the receiver's handler
        ctx.fireChannelActive();
        ctx.pipeline().remove(this);
    }
}
