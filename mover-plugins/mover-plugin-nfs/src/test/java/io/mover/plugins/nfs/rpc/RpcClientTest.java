package io.mover.plugins.nfs.rpc;

import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.EventLoopGroup;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The client's timeouts, retransmissions and reconnects against a minimal RPC server on loopback that
 * misbehaves on purpose (ganesha cannot be made to drop one reply). It speaks real record marking and
 * RPC reply headers.
 */
@Timeout(30)
class RpcClientTest {
    private enum Action { REPLY, IGNORE, CLOSE, GARBAGE }

    private interface Behaviour {
        Action on(int callNumber);
    }

    private final EventLoopGroup group = Transport.group(1, new io.netty.util.concurrent.DefaultThreadFactory("rpc-test", true));
    private final List<Integer> xidsSeen = new CopyOnWriteArrayList<>();
    private final AtomicInteger connections = new AtomicInteger();
    private ServerSocket server;

    @AfterEach
    void stop() throws IOException {
        if (server != null) {
            server.close();
        }
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }

    private void serve(Behaviour behaviour) throws IOException {
        server = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
        AtomicInteger calls = new AtomicInteger();
        Thread.ofVirtual().start(() -> {
            for (int i = 0; i < 20 && !server.isClosed(); i++) {
                try {
                    Socket socket = server.accept();
                    connections.incrementAndGet();
                    Thread.ofVirtual().start(() -> handle(socket, behaviour, calls));
                }
                catch (IOException e) {
                    return;
                }
            }
        });
    }

    private void handle(Socket socket, Behaviour behaviour, AtomicInteger calls) {
        try (socket) {
            DataInputStream in = new DataInputStream(socket.getInputStream());
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            for (int i = 0; i < 10_000; i++) {
                int mark = in.readInt();
                byte[] record = new byte[mark & 0x7FFF_FFFF];
                in.readFully(record);
                int xid = java.nio.ByteBuffer.wrap(record).getInt();
                xidsSeen.add(xid);
                switch (behaviour.on(calls.incrementAndGet())) {
                    case REPLY -> {
                        out.writeInt(0x8000_0000 | 28);
                        out.writeInt(xid);
                        out.writeInt(1);
                        out.writeInt(0);
                        out.writeInt(0);
                        out.writeInt(0);
                        out.writeInt(0);
                        out.writeInt(42);
                    }
                    case IGNORE -> {
                    }
                    case CLOSE -> {
                        return;
                    }
                    case GARBAGE -> {
                        out.writeInt(0x8000_0008);
                        out.writeInt(xid);
                        out.writeInt(0); // a CALL where a reply belongs
                    }
                }
                out.flush();
            }
        }
        catch (IOException e) {
            // the client went away
        }
    }

    private RpcClient client(int port, Duration timeout) {
        RpcClientConfig config = new RpcClientConfig(2, 4, timeout, 3, Duration.ofSeconds(5), 1 << 20);
        return new RpcClient(new InetSocketAddress("127.0.0.1", port), RpcProgram.NFS, new AuthSys(0, 0, "test"), config, group,
                PooledByteBufAllocator.DEFAULT);
    }

    private static int answer(CompletableFuture<ByteBuf> reply) {
        ByteBuf body = reply.join();
        try {
            return body.readInt();
        }
        finally {
            body.release();
        }
    }

    @Test
    void anUnansweredCallIsSentAgainWithTheSameXid() throws Exception {
        serve(call -> call == 1 ? Action.IGNORE : Action.REPLY);
        try (RpcClient client = client(server.getLocalPort(), Duration.ofMillis(300))) {
            assertThat(answer(client.call(0, out -> { }))).isEqualTo(42);
            assertThat(client.retransmissions()).isEqualTo(1);
            assertThat(client.reconnects()).isZero();
        }
        assertThat(xidsSeen).hasSize(2);
        assertThat(xidsSeen.get(0)).isEqualTo(xidsSeen.get(1));
    }

    @Test
    void aDroppedConnectionIsReestablishedAndTheCallResent() throws Exception {
        serve(call -> call == 1 ? Action.CLOSE : Action.REPLY);
        try (RpcClient client = client(server.getLocalPort(), Duration.ofSeconds(10))) {
            assertThat(answer(client.call(0, out -> { }))).isEqualTo(42);
            assertThat(client.retransmissions()).isEqualTo(1);
            assertThat(client.reconnects()).isPositive();
        }
        assertThat(xidsSeen).hasSize(2);
        assertThat(xidsSeen.get(0)).isEqualTo(xidsSeen.get(1));
        assertThat(connections.get()).isGreaterThanOrEqualTo(2);
    }

    @Test
    void garbageRepliesDropTheConnectionAndTheCallFailsSayingWhy() throws Exception {
        serve(call -> Action.GARBAGE);
        try (RpcClient client = client(server.getLocalPort(), Duration.ofSeconds(10))) {
            assertThatThrownBy(() -> client.call(0, out -> { }).join()).cause().isInstanceOf(MoverException.class)
                    .hasMessageContaining("not an RPC reply").hasMessageContaining("3 times")
                    .satisfies(e -> assertThat(((MoverException) e).code()).isEqualTo(ErrorCode.CONNECTION_LOST));
        }
        assertThat(connections.get()).isEqualTo(3);
    }

    @Test
    void manyCallsInFlightAreAllAnswered() throws Exception {
        serve(call -> Action.REPLY);
        try (RpcClient client = client(server.getLocalPort(), Duration.ofSeconds(10))) {
            List<CompletableFuture<ByteBuf>> replies = new java.util.ArrayList<>();
            for (int i = 0; i < 200; i++) {
                replies.add(client.call(0, out -> out.writeInt(7)));
            }
            for (CompletableFuture<ByteBuf> reply : replies) {
                assertThat(answer(reply)).isEqualTo(42);
            }
        }
        assertThat(xidsSeen).hasSize(200).doesNotHaveDuplicates();
    }

    @Test
    void anUnreachableServerIsOneLineNamingIt() throws Exception {
        int port;
        try (ServerSocket closed = new ServerSocket(0)) {
            port = closed.getLocalPort();
        }
        try (RpcClient client = client(port, Duration.ofSeconds(1))) {
            assertThatThrownBy(() -> client.call(0, out -> { }).join()).cause()
                    .hasMessageContaining("cannot connect to NFS v3 at 127.0.0.1:" + port).hasMessageNotContaining("\n");
        }
    }
}
