package io.mover.plugins.nfs.rpc;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;

import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * One of an {@link RpcClient}'s connections, (re)established on demand; at most one connect attempt at a time.
 *
 * <p>Thread-safe.
 */
final class RpcConnection {
    private final Supplier<ChannelFuture> connector;
    private final Runnable onConnected;
    private final Runnable onReconnected;
    private CompletableFuture<Channel> current;
    private boolean connectedBefore;
    private volatile boolean used;

    /**
     * @param connector starts a connect
     * @param onConnected runs after every successful connect
     * @param onReconnected runs after a successful connect that replaces an earlier connection
     */
    RpcConnection(Supplier<ChannelFuture> connector, Runnable onConnected, Runnable onReconnected) {
        this.connector = connector;
        this.onConnected = onConnected;
        this.onReconnected = onReconnected;
    }

    /** The connected channel, or the connect under way (started now when there is neither). */
    synchronized CompletableFuture<Channel> channel() {
        boolean connecting = current != null && !current.isDone();
        boolean connected = current != null && current.isDone() && !current.isCompletedExceptionally() && current.join().isActive();
        if (connecting || connected) {
            return current;
        }
        CompletableFuture<Channel> attempt = new CompletableFuture<>();
        current = attempt;
        ChannelFuture connect = connector.get();
        connect.addListener(future -> {
            if (future.isSuccess()) {
                connected();
                attempt.complete(connect.channel());
            }
            else {
                attempt.completeExceptionally(future.cause());
            }
        });
        return attempt;
    }

    private void connected() {
        boolean again;
        synchronized (this) {
            again = connectedBefore;
            connectedBefore = true;
        }
        if (again) {
            onReconnected.run();
        }
        onConnected.run();
    }

    /** Calls unanswered on this connection; very high while it connects or after it failed, so calls go elsewhere. */
    int load() {
        CompletableFuture<Channel> state;
        synchronized (this) {
            state = current;
        }
        if (state == null || !state.isDone() || state.isCompletedExceptionally()) {
            return state == null ? 0 : Integer.MAX_VALUE / 2;
        }
        RpcConnectionHandler handler = state.join().pipeline().get(RpcConnectionHandler.class);
        return handler == null ? Integer.MAX_VALUE / 2 : handler.pending();
    }

    void markUsed() {
        used = true;
    }

    /** Whether this connection carried at least one call. */
    boolean used() {
        return used;
    }

    synchronized void close() {
        if (current != null && current.isDone() && !current.isCompletedExceptionally()) {
            current.join().close();
        }
    }
}
