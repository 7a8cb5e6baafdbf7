package io.mover.plugins.nfs.rpc;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;

import java.util.concurrent.ThreadFactory;

/**
 * The event-loop transport: Netty's native epoll on Linux, NIO elsewhere. Small files cost several calls each,
 * and each call a hand-over to the event loop, a write and a read: epoll does that with fewer system calls and
 * cheaper wake-ups than the JDK's selector. Groups and channels must come from the same transport.
 */
public final class Transport {
    private static final boolean EPOLL = Epoll.isAvailable();

    private Transport() {
    }

    /** Event loops for {@link RpcClient}s. */
    public static EventLoopGroup group(int threads, ThreadFactory threadFactory) {
        return new MultiThreadIoEventLoopGroup(threads, threadFactory, EPOLL ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
    }

    static Class<? extends SocketChannel> socketChannel() {
        return EPOLL ? EpollSocketChannel.class : NioSocketChannel.class;
    }

    /** "epoll" or "nio", for logs and tests. */
    public static String name() {
        return EPOLL ? "epoll" : "nio";
    }
}
