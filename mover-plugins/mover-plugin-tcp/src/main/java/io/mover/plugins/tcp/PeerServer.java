package io.mover.plugins.tcp;

import java.net.InetSocketAddress;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import io.mover.spi.CodecFactory;
import io.mover.spi.EndpointInfo;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.PeerReceiver;
import io.mover.spi.Sink;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.GlobalEventExecutor;

import static java.util.Objects.requireNonNull;

/**
 * The receiving end: a Netty server whose connections write into one destination {@link Sink}.
 * Event loops only move bytes and frames; every sink call and every decode runs on virtual threads
 * ({@link #workers()}), bounded by each connection's window. Thread-safe.
 */
final class PeerServer implements PeerReceiver {
    private final ReceiverSettings settings;
    /** The TLS context and the certificate's fingerprint, when the receiver runs TLS. */
    private final java.util.Optional<PeerTls.Server> tls;
    /** Destinations opened so far, one per sender job key; closed with the receiver. */
    private final Map<String, Sink> sinks = new ConcurrentHashMap<>();
    /** The job key of each session, guarded by itself: a job's sink lives while one of its sessions does. */
    private final Map<String, String> jobs = new java.util.HashMap<>();
    private final Function<String, Sink> destination;
    private final Decoders decoders;
    /** Block-sized buffers, shared by the connections' frame decoders and the decoding workers. */
    private final BlockBuffers buffers = new BlockBuffers(BlockBuffers.DEFAULT_MAX_IDLE);
    private final ReceiveCap cap;
    private final System.Logger logger;
    private final EndpointInfo info;
    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
    private final ExecutorService workers;
    private final ChannelGroup channels = new DefaultChannelGroup("mover-receiver", GlobalEventExecutor.INSTANCE);
    private final Map<String, ReceiverSession> sessions = new ConcurrentHashMap<>();
    private final AtomicInteger connections = new AtomicInteger();
    /** Distinct sender jobs served: bounds the destinations held open. */
    private static final int MAX_JOBS = 1024;
    private Channel server;

    PeerServer(ReceiverSettings settings, Function<String, Sink> destination, Collection<CodecFactory> codecs, System.Logger logger) {
        this(settings, java.util.Optional.empty(), destination, codecs, logger);
    }

    /** @param tls built by the caller from {@code settings.tls()} before any thread of this server starts (a bad certificate fails first) */
    PeerServer(ReceiverSettings settings, java.util.Optional<PeerTls.Server> tls, Function<String, Sink> destination, Collection<CodecFactory> codecs,
            System.Logger logger) {
        this(settings, tls, destination, codecs, logger, Executors.newVirtualThreadPerTaskExecutor());
    }

    /**
     * @param workers where disk and codec work runs, off the event loops; tests that drive a handler on an
     *     EmbeddedChannel pass one that runs on the calling thread (its event loop is not thread-safe)
     */
    PeerServer(ReceiverSettings settings, java.util.Optional<PeerTls.Server> tls, Function<String, Sink> destination, Collection<CodecFactory> codecs,
            System.Logger logger, ExecutorService workers) {
        this.workers = requireNonNull(workers, "workers is null");
        this.settings = requireNonNull(settings, "settings is null");
        this.tls = requireNonNull(tls, "tls is null");
        this.destination = requireNonNull(destination, "destination is null");
        this.decoders = new Decoders(codecs, buffers, settings.zeroBlocks());
        this.cap = ReceiveCap.of(settings.capMbps());
        this.logger = requireNonNull(logger, "logger is null");
        this.info = sink("receiver").info();
    }

    PeerServer bind(InetSocketAddress address) {
        if (!address.getAddress().isLoopbackAddress() && settings.token().length == 0) {
            close();
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "listening on " + address.getAddress().getHostAddress()
                    + " (not loopback) needs a token: set one with --token-file FILE or $MOVER_PEER_TOKEN, and give the same to the sender");
        }
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .childOption(ChannelOption.AUTO_READ, false)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        initConnection(channel);
                    }
                });
        try {
            server = bootstrap.bind(address).syncUninterruptibly().channel();
        }
        catch (Exception e) {
            // Netty rethrows the bind's IOException unchecked, hence Exception
            close();
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "cannot listen on " + address + ": " + e.getMessage()
                    + " (is another receiver running there? choose another port)");
        }
        return this;
    }

    /** The pipeline, in one place: [START_TLS, TLS] → frames (limits, deadline) → messages → the connection's handler. */
    private void initConnection(SocketChannel channel) {
        if (connections.incrementAndGet() > settings.maxConnections()) {
            log(System.Logger.Level.WARNING, "refusing a connection from " + channel.remoteAddress() + ": " + settings.maxConnections() + " are open");
            connections.decrementAndGet();
            channel.close();
            return;
        }
        channel.closeFuture().addListener(future -> connections.decrementAndGet());
        channels.add(channel);
        FrameDecoder frames = new FrameDecoder(Wire.MAX_HANDSHAKE_FRAME, settings.frameTimeout(), buffers);
        if (tls.isEmpty()) {
            channel.config().setRecvByteBufAllocator(frames.readsInto(channel.config().getRecvByteBufAllocator()));
        }
        tls.ifPresent(server -> channel.pipeline()
                .addLast("starttls", new TlsAnnouncer())
                .addLast("tls", server.context().newHandler(channel.alloc())));
        channel.pipeline()
                .addLast("frames", frames)
                .addLast("decoder", MessageDecoder.INSTANCE)
                .addLast("encoder", MessageEncoder.INSTANCE)
                .addLast("receiver", new ReceiverHandler(this, frames));
    }

    /** The destination for a job key; opening it blocks, which is why the handshake reply is sent from a worker. */
    private Sink sink(String jobKey) {
        if (sinks.size() >= MAX_JOBS && !sinks.containsKey(jobKey)) {
            throw new io.mover.spi.MoverException(io.mover.spi.ErrorCode.THROTTLED, "the receiver serves " + MAX_JOBS + " jobs already");
        }
        return sinks.computeIfAbsent(jobKey, destination);
    }

    ReceiverSession join(String sessionId, String jobKey) {
        // under one lock with the expiry below: a job's destination is closed only when no session of the job is left
        synchronized (jobs) {
            Sink sink = sink(jobKey);
            ReceiverSession joined = sessions.compute(sessionId, (id, existing) -> {
                ReceiverSession session = existing != null ? existing : new ReceiverSession(id, sink, decoders, cap, logger);
                session.joined();
                return session;
            });
            jobs.put(sessionId, jobKey);
            return joined;
        }
    }

    /** The session's last connection went away: its unfinished files wait {@link ReceiverSettings#sessionGrace()} for a reconnect. */
    void leave(ReceiverSession session) {
        if (!session.left()) {
            return;
        }
        io.netty.util.concurrent.ScheduledFuture<?> expiry = group.next().schedule(() -> {
            boolean[] expired = {false};
            Sink unused = null;
            synchronized (jobs) {
                sessions.computeIfPresent(session.id(), (id, current) -> {
                    expired[0] = current == session && session.idle();
                    return expired[0] ? null : current;
                });
                String jobKey = expired[0] ? jobs.remove(session.id()) : null;
                if (jobKey != null && !jobs.containsValue(jobKey)) {
                    unused = sinks.remove(jobKey); // the job's last session: its destination is closed, not held until the receiver stops
                }
            }
            if (expired[0]) {
                Sink closing = unused;
                workers.execute(() -> {
                    session.abortAll();
                    if (closing != null) {
                        closeQuietly(closing);
                        log(System.Logger.Level.INFO, "closed the destination of a sender job: its last session ended");
                    }
                });
            }
        }, settings.sessionGrace().toMillis(), TimeUnit.MILLISECONDS);
        session.expireWith(() -> expiry.cancel(false));
    }

    @Override
    public java.util.Optional<String> certificateFingerprint() {
        return tls.map(PeerTls.Server::fingerprint);
    }

    @Override
    public InetSocketAddress address() {
        return (InetSocketAddress) server.localAddress();
    }

    @Override
    public void close() {
        if (server != null) {
            server.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
        channels.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        workers.shutdown();
        try {
            if (!workers.awaitTermination(30, TimeUnit.SECONDS)) {
                workers.shutdownNow();
            }
        }
        catch (InterruptedException e) {
            workers.shutdownNow();
            Thread.currentThread().interrupt();
        }
        sessions.values().forEach(ReceiverSession::abortAll);
        sessions.clear();
        sinks.values().forEach(this::closeQuietly);
        sinks.clear();
    }

    private void closeQuietly(Sink sink) {
        try {
            sink.close();
        }
        catch (RuntimeException e) {
            log(System.Logger.Level.WARNING, "could not close the destination: " + e.getMessage());
        }
    }

    ReceiverSettings settings() { return settings; }
    Decoders decoders() { return decoders; }
    BlockBuffers buffers() { return buffers; }
    ExecutorService workers() { return workers; }

    long mtimePrecisionNanos() {
        return info.mtimePrecision().toNanos();
    }

    int flags() {
        return (info.caseSensitive() ? Message.Welcome.CASE_SENSITIVE : 0)
                | (info.preservesPosixMode() ? Message.Welcome.POSIX_MODE : 0)
                | (info.preservesModificationTime() ? Message.Welcome.MODIFICATION_TIME : 0)
                | Message.Welcome.FREE_SPACE | Message.Welcome.LOAD | (MachineIdentity.local().known() ? Message.Welcome.MACHINE : 0);
    }

    void log(System.Logger.Level level, String message) {
        logger.log(level, message);
    }

}
