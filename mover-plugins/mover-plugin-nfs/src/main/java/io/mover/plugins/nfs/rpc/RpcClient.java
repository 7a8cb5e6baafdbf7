package io.mover.plugins.nfs.rpc;

import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.SocketChannel;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import static java.util.Objects.requireNonNull;

/**
 * ONC RPC over TCP to one program on one server, over several connections.
 *
 * <p>Each call gets a fresh XID and is sent on the connection with the fewest unanswered calls. A call is
 * retransmitted, with the same XID, when its timeout passes or its connection ends; connections are
 * re-established on demand, for up to {@code reconnectTimeout} once the server has answered at least once
 * (before that, the first connect failure is the answer: the server is unreachable). {@link #call} blocks
 * while {@code connections * callsInFlight} calls are outstanding: call it from engine threads, never from
 * an event loop.
 *
 * <p>Thread-safe.
 */
public final class RpcClient implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(RpcClient.class.getName());

    private final InetSocketAddress address;
    private final String server;
    private final RpcProgram program;
    private final AuthSys auth;
    private final RpcClientConfig config;
    private final EventLoopGroup group;
    private final ByteBufAllocator allocator;
    private final RpcConnection[] slots;
    private final Semaphore permits;
    private final AtomicInteger xids = new AtomicInteger(ThreadLocalRandom.current().nextInt());
    private volatile boolean everConnected;
    private volatile long unreachableSince;
    private volatile boolean closed;
    private final java.util.concurrent.atomic.LongAdder retransmissions = new java.util.concurrent.atomic.LongAdder();
    private final java.util.concurrent.atomic.LongAdder reconnects = new java.util.concurrent.atomic.LongAdder();

    public RpcClient(InetSocketAddress address, RpcProgram program, AuthSys auth, RpcClientConfig config, EventLoopGroup group,
            ByteBufAllocator allocator) {
        this.address = requireNonNull(address, "address is null");
        this.program = requireNonNull(program, "program is null");
        this.auth = requireNonNull(auth, "auth is null");
        this.config = requireNonNull(config, "config is null");
        this.group = requireNonNull(group, "group is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.server = address.getHostString() + ":" + address.getPort();
        this.slots = new RpcConnection[config.connections()];
        for (int i = 0; i < slots.length; i++) {
            slots[i] = new RpcConnection(this::connect, this::connected, reconnects::increment);
        }
        this.permits = new Semaphore(config.connections() * config.callsInFlight());
    }

    public String server() {
        return server;
    }

    public ByteBufAllocator allocator() {
        return allocator;
    }

    /**
     * Sends a call; {@code arguments} writes the procedure's arguments. The future completes with the
     * results (the caller releases the buffer) or a {@link MoverException}.
     */
    public CompletableFuture<ByteBuf> call(int procedure, Consumer<ByteBuf> arguments) {
        return call(procedure, arguments, null);
    }

    /**
     * A call whose arguments end with {@code payload}'s readable bytes as XDR opaque data ({@code arguments}
     * writes its length): the payload goes out as it is, without a copy, and is neither consumed nor released.
     */
    public CompletableFuture<ByteBuf> call(int procedure, Consumer<ByteBuf> arguments, ByteBuf payload) {
        if (closed) {
            return CompletableFuture.failedFuture(new MoverException(ErrorCode.CANCELLED, "the NFS client for " + server + " is closed"));
        }
        try {
            permits.acquire();
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return CompletableFuture.failedFuture(new MoverException(ErrorCode.CANCELLED, "interrupted while waiting to call " + server));
        }
        ByteBuf request = allocator.buffer(256);
        RpcCall call;
        // released on failure below, or by the call once answered
        try {
            int xid = xids.incrementAndGet();
            RpcMessages.writeCallHeader(request, xid, program, procedure, auth);
            arguments.accept(request);
            if (payload != null) {
                request = withPayload(request, payload);
            }
            RpcMessages.finishRecord(request);
            call = new RpcCall(xid, program, procedure, request);
        }
        catch (RuntimeException e) {
            request.release();
            permits.release();
            throw e;
        }
        call.reply.whenComplete((body, error) -> permits.release());
        send(call);
        return call.reply;
    }

    private ByteBuf withPayload(ByteBuf header, ByteBuf payload) {
        int length = payload.readableBytes();
        io.netty.buffer.CompositeByteBuf record = allocator.compositeBuffer(3);
        record.addComponent(true, header);
        record.addComponent(true, payload.retainedSlice());
        int padding = Xdr.padding(length);
        if (padding > 0) {
            record.addComponent(true, allocator.buffer(padding).writeZero(padding));
        }
        return record;
    }

    private void send(RpcCall call) {
        if (call.isDone()) {
            return;
        }
        if (closed) {
            call.fail(new MoverException(ErrorCode.CANCELLED, "the NFS client for " + server + " is closed"));
            return;
        }
        RpcConnection slot = leastLoaded();
        slot.channel().whenComplete((channel, error) -> {
            if (error != null) {
                retryAfterConnectFailure(call, error);
                return;
            }
            RpcConnectionHandler handler = channel.pipeline().get(RpcConnectionHandler.class);
            if (handler == null || !handler.register(call)) {
                group.schedule(() -> send(call), 10, TimeUnit.MILLISECONDS);
                return;
            }
            if (call.sends++ > 0) {
                retransmissions.increment();
            }
            slot.markUsed();
            // the write and its timeout in one task on the connection's event loop: one hand-over (and wake-up) per
            // call instead of two, and the timeout is armed before any reply can cancel it
            EventLoop loop = channel.eventLoop();
            if (loop.inEventLoop()) {
                transmit(call, channel, handler);
            }
            else {
                loop.execute(() -> transmit(call, channel, handler));
            }
        });
    }

    private void transmit(RpcCall call, Channel channel, RpcConnectionHandler handler) {
        if (call.isDone()) {
            return;
        }
        channel.writeAndFlush(call.request.retainedDuplicate());
        call.timeout = channel.eventLoop().schedule(() -> timedOut(call, handler), config.callTimeout().toMillis(), TimeUnit.MILLISECONDS);
    }

    private void timedOut(RpcCall call, RpcConnectionHandler handler) {
        handler.forget(call);
        if (call.isDone()) {
            return;
        }
        if (call.sends >= config.maxSends()) {
            call.fail(new MoverException(ErrorCode.TIMEOUT, server + " did not answer " + call.describe() + " within " +
                    config.callTimeout().toSeconds() + " s, " + call.sends + " times; check the server's load and the network"));
            return;
        }
        LOG.log(System.Logger.Level.WARNING, "{0} did not answer {1} (xid {2}) within {3} ms; sending it again",
                server, call.describe(), Integer.toUnsignedString(call.xid), config.callTimeout().toMillis());
        send(call);
    }

    /** Calls left unanswered by a connection that ended: sent again elsewhere, or failed with the reason. */
    private void orphaned(List<RpcCall> calls, String reason) {
        for (RpcCall call : calls) {
            if (call.sends >= config.maxSends()) {
                call.fail(RpcCall.lost(server + " " + reason + " while " + call.describe() + " was unanswered, " + call.sends + " times"));
            }
            else {
                send(call);
            }
        }
    }

    private void retryAfterConnectFailure(RpcCall call, Throwable error) {
        String reason = error.getMessage() == null ? error.getClass().getSimpleName() : error.getMessage();
        if (!everConnected) {
            call.fail(new MoverException(ErrorCode.CONNECTION_LOST, "cannot connect to " + program + " at " + server + ": " + reason +
                    "; check the server name, port and that it is running"));
            return;
        }
        long now = System.nanoTime();
        if (unreachableSince == 0) {
            unreachableSince = now;
        }
        if (now - unreachableSince > config.reconnectTimeout().toNanos()) {
            call.fail(new MoverException(ErrorCode.CONNECTION_LOST, "lost " + program + " at " + server + " and could not reconnect within " +
                    config.reconnectTimeout().toSeconds() + " s: " + reason));
            return;
        }
        group.schedule(() -> send(call), 250, TimeUnit.MILLISECONDS);
    }

    private RpcConnection leastLoaded() {
        RpcConnection best = slots[0];
        for (RpcConnection slot : slots) {
            if (slot.load() < best.load()) {
                best = slot;
            }
        }
        return best;
    }

    /** Calls sent again (after a timeout, or on another connection when theirs ended), since this client was made. */
    public long retransmissions() {
        return retransmissions.sum();
    }

    /** Connections established again after one had ended (a server restart, a dropped connection). */
    public long reconnects() {
        return reconnects.sum();
    }

    /** Connections that carried at least one call: a job's calls spread over all of them, not only the first. */
    public int connectionsUsed() {
        int used = 0;
        for (RpcConnection slot : slots) {
            used += slot.used() ? 1 : 0;
        }
        return used;
    }

    @Override
    public void close() {
        closed = true;
        for (RpcConnection slot : slots) {
            slot.close();
        }
    }

    private void connected() {
        everConnected = true;
        unreachableSince = 0;
    }

    private ChannelFuture connect() {
        return new Bootstrap().group(group).channel(Transport.socketChannel())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 10_000)
                .option(ChannelOption.ALLOCATOR, allocator)
                .option(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(1 << 20, 8 << 20))
                // reads of up to 512 KiB when the socket has that much (1 MiB READ replies): a quarter of the
                // system calls of Netty's 64 KiB default, and fewer pieces per reply (the decoder keeps them as they are)
                .option(ChannelOption.RCVBUF_ALLOCATOR, new AdaptiveRecvByteBufAllocator(512, 64 << 10, 512 << 10))
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        channel.pipeline().addLast(new RecordMarkingDecoder(config.maxRecordBytes()),
                                new RpcConnectionHandler(server, RpcClient.this::orphaned));
                    }
                })
                .connect(address);
    }
}
