package io.mover.plugins.tcp;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.IntFunction;

import io.mover.plugins.tcp.Message.Auth;
import io.mover.plugins.tcp.Message.Failure;
import io.mover.plugins.tcp.Message.Hello;
import io.mover.plugins.tcp.Message.Listing;
import io.mover.plugins.tcp.Message.Welcome;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.ReferenceCountUtil;

/**
 * One TCP stream of a sender: its handshake, and requests matched to replies by id. At most the
 * receiver's window of requests is in flight ({@link #send} blocks for a slot), which bounds the memory
 * both ends hold per stream. Thread-safe; replies are handled on the stream's event loop.
 */
final class PeerStream {
    private volatile Channel channel;
    private final Map<Integer, Pending> pending = new ConcurrentHashMap<>();
    private final AtomicInteger ids = new AtomicInteger();
    private final CompletableFuture<Hello> hello = new CompletableFuture<>();
    private final CompletableFuture<Welcome> welcome = new CompletableFuture<>();
    private volatile Semaphore window = new Semaphore(0);
    /** Where waits for a slot of the window are counted, shared by the link's streams. */
    private final LinkMeter meter;
    private volatile MoverException broken;

    /** A request waiting for its reply; a listing gathers its parts. */
    private record Pending(CompletableFuture<List<Message>> reply, List<Message> parts) {}

    private PeerStream(LinkMeter meter) {
        this.meter = meter;
    }

    /**
     * Connects and authenticates; returns once the receiver proved it knows the token too.
     *
     * @param tls the TLS context when the sender asks for TLS: the receiver must announce it (START_TLS)
     */
    static PeerStream connect(Bootstrap bootstrap, InetSocketAddress address, byte[] token, byte[] session, String jobKey, int index, Duration timeout,
            LinkMeter meter, Optional<SslContext> tls) {
        PeerStream stream = new PeerStream(meter);
        ChannelFuture connected = bootstrap.clone().handler(new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel channel) {
                channel.pipeline()
                        .addLast("frames", new FrameDecoder(Wire.MAX_FRAME, timeout))
                        .addLast("decoder", MessageDecoder.INSTANCE)
                        .addLast("encoder", MessageEncoder.INSTANCE)
                        .addLast("sender", stream.new Handler(token, session, jobKey, index, tls, address));
                stream.channel = channel;
            }
        }).connect(address);
        if (!connected.awaitUninterruptibly(timeout.toMillis()) || !connected.isSuccess()) {
            connected.channel().close();
            Throwable cause = connected.cause();
            throw new MoverException(ErrorCode.CONNECTION_LOST, "cannot connect to the receiver at " + address.getHostString() + ":" + address.getPort()
                    + ": " + (cause == null ? "no answer within " + timeout.toSeconds() + " s" : cause.getMessage()) + " (is 'mover receive' running there?)");
        }
        stream.awaitWelcome(timeout, address);
        return stream;
    }

    private void awaitWelcome(Duration timeout, InetSocketAddress address) {
        try {
            welcome.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        }
        catch (ExecutionException e) {
            channel.close();
            throw e.getCause() instanceof MoverException mover ? mover : new MoverException(ErrorCode.CONNECTION_LOST, e.getCause().toString());
        }
        catch (TimeoutException e) {
            channel.close();
            throw new MoverException(ErrorCode.TIMEOUT, "the receiver at " + address + " did not complete the handshake within " + timeout.toSeconds() + " s");
        }
        catch (InterruptedException e) {
            channel.close();
            Thread.currentThread().interrupt();
            throw new MoverException(ErrorCode.CANCELLED, "interrupted while connecting");
        }
    }

    Hello hello() {
        return hello.join();
    }

    Welcome welcome() {
        return welcome.join();
    }

    Channel channel() {
        return channel;
    }

    boolean usable() {
        return broken == null && channel.isActive();
    }

    int freeSlots() {
        return window.availablePermits();
    }

    /**
     * Sends the request built for a fresh id, once a slot of the window is free (waiting at most
     * {@code timeout}, and giving up when {@code stop} says so). Ownership of a reference-counted request
     * passes to this call, whatever happens.
     */
    CompletableFuture<List<Message>> send(IntFunction<Message> request, Duration timeout, BooleanSupplier stop) {
        Message message = null;
        try {
            acquire(timeout, stop);
            int id = ids.incrementAndGet();
            message = request.apply(id);
            CompletableFuture<List<Message>> reply = new CompletableFuture<>();
            pending.put(id, new Pending(reply, new ArrayList<>(1)));
            MoverException failed = broken;
            if (failed != null) {
                fail(id, failed);
            }
            else {
                Message sent = message;
                message = null;
                channel.writeAndFlush(sent).addListener(future -> {
                    if (!future.isSuccess()) {
                        fail(id, lost("the write failed: " + future.cause().getMessage()));
                    }
                });
            }
            return reply;
        }
        finally {
            ReferenceCountUtil.release(message);
        }
    }

    private void acquire(Duration timeout, BooleanSupplier stop) {
        if (window.tryAcquire()) {
            return;
        }
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        // bytes this end's socket has not taken yet: the window is full because the link is slow
        boolean queuedAtStart = !channel.isWritable();
        try {
            while (!window.tryAcquire(100, TimeUnit.MILLISECONDS)) {
                if (broken != null) {
                    throw broken;
                }
                if (stop.getAsBoolean()) {
                    throw new MoverException(ErrorCode.CANCELLED, "stopped");
                }
                if (System.nanoTime() > deadline) {
                    throw new MoverException(ErrorCode.TIMEOUT, "the receiver acknowledged nothing for " + timeout.toSeconds() + " s");
                }
            }
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MoverException(ErrorCode.CANCELLED, "interrupted");
        }
        finally {
            meter.waited(System.nanoTime() - start, queuedAtStart && !channel.isWritable());
        }
    }

    private void fail(int id, MoverException error) {
        Pending waiting = pending.remove(id);
        if (waiting != null) {
            window.release();
            waiting.reply().completeExceptionally(error);
        }
    }

    private MoverException lost(String why) {
        return new MoverException(ErrorCode.CONNECTION_LOST, "the connection to the receiver at " + channel.remoteAddress() + " was lost: " + why);
    }

    void close() {
        channel.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
    }

    /** The stream's inbound side, on its event loop. */
    private final class Handler extends ChannelInboundHandlerAdapter {
        private final byte[] token;
        private final byte[] session;
        private final String jobKey;
        private final int index;
        private final byte[] nonce = Handshake.random(Wire.NONCE);
        private final Optional<SslContext> tls;
        private final InetSocketAddress address;
        private boolean tlsStarted;

        Handler(byte[] token, byte[] session, String jobKey, int index, Optional<SslContext> tls, InetSocketAddress address) {
            this.token = token;
            this.session = session;
            this.jobKey = jobKey;
            this.index = index;
            this.tls = tls;
            this.address = address;
        }

        /** START_TLS, the receiver's plain first frame when it runs TLS: the rest of the connection runs inside TLS. */
        private void startTls(ChannelHandlerContext ctx) {
            if (tls.isEmpty()) {
                throw PeerTls.required(where());
            }
            if (tlsStarted || hello.isDone()) {
                throw new ProtocolException("START_TLS after the handshake began");
            }
            tlsStarted = true;
            // first in the pipeline: every byte from now on goes through TLS; the client handshake starts as it is added
            ctx.pipeline().addFirst("tls", tls.get().newHandler(ctx.alloc(), address.getHostString(), address.getPort()));
        }

        private String where() {
            return address.getHostString() + ":" + address.getPort();
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
            if (event instanceof SslHandshakeCompletionEvent completion && !completion.isSuccess() && broken == null) {
                broken = tlsFailed(completion.cause());
            }
            ctx.fireUserEventTriggered(event);
        }

        private MoverException tlsFailed(Throwable cause) {
            return PeerTls.failed(cause, where());
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                switch (msg) {
                    case Message.StartTls start -> startTls(ctx);
                    case Hello h -> {
                        if (tls.isPresent() && !tlsStarted) {
                            throw PeerTls.missing(where());
                        }
                        if (h.version() != Wire.VERSION) {
                            throw new ProtocolException("the receiver speaks protocol version " + h.version() + ", this sender " + Wire.VERSION);
                        }
                        if (h.window() < 1 || h.window() > 1024) {
                            throw new ProtocolException("the receiver announced a window of " + h.window());
                        }
                        window = new Semaphore(h.window());
                        hello.complete(h);
                        ctx.writeAndFlush(new Auth(Wire.VERSION, session, jobKey, index, nonce, Handshake.senderProof(token, h.nonce(), nonce, session)));
                    }
                    case Welcome w -> {
                        if (!hello.isDone() || !Handshake.matches(Handshake.receiverProof(token, hello.join().nonce(), nonce, session), w.mac())) {
                            throw new MoverException(ErrorCode.AUTHENTICATION_FAILED,
                                    "the receiver could not prove it knows the token: check both ends use the same token");
                        }
                        welcome.complete(w);
                    }
                    case Failure f when f.id() == 0 -> throw new MoverException(code(f.code()), "the receiver closed the connection: " + f.message());
                    case Failure f -> reply(f.id(), new MoverException(code(f.code()), f.message()), f);
                    case Listing l when !l.last() -> {
                        Pending waiting = pending.get(l.id());
                        if (waiting == null) {
                            throw new ProtocolException("a reply to request " + l.id() + ", which is not in flight");
                        }
                        waiting.parts().add(l);
                    }
                    default -> reply(replyId(msg), null, (Message) msg);
                }
            }
            finally {
                ReferenceCountUtil.release(msg);
            }
        }

        private void reply(int id, MoverException error, Message message) {
            Pending waiting = pending.remove(id);
            if (waiting == null) {
                throw new ProtocolException("a reply to request " + id + ", which is not in flight");
            }
            window.release();
            if (error != null) {
                waiting.reply().completeExceptionally(error);
                return;
            }
            waiting.parts().add(message);
            waiting.reply().complete(waiting.parts());
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            Throwable reason = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
            if (broken == null) {
                broken = reason instanceof MoverException mover ? mover
                        : reason instanceof javax.net.ssl.SSLException ? tlsFailed(reason) : lost(String.valueOf(reason.getMessage()));
            }
            ctx.close();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            MoverException error = broken != null ? broken : lost("the receiver closed it");
            broken = error;
            hello.completeExceptionally(error);
            welcome.completeExceptionally(error);
            for (Integer id : List.copyOf(pending.keySet())) {
                fail(id, error);
            }
            ctx.fireChannelInactive();
        }
    }

    private static int replyId(Object message) {
        return switch (message) {
            case Message.Done done -> done.id();
            case Message.Kept kept -> kept.id();
            case Message.EntryReply entry -> entry.id();
            case Listing listing -> listing.id();
            default -> throw new ProtocolException("unexpected " + message.getClass().getSimpleName() + " from the receiver");
        };
    }

    static ErrorCode code(String name) {
        try {
            return ErrorCode.valueOf(name);
        }
        catch (IllegalArgumentException e) {
            return ErrorCode.INTERNAL;
        }
    }
}
