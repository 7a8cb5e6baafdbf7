package io.mover.plugins.nfs.rpc;

import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.ScheduledFuture;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One call in flight: its encoded record (kept until the reply, so it can be retransmitted with the
 * same XID on another connection), the future of its reply body, and how often it was sent.
 * Completed exactly once; whoever completes it releases the request.
 */
final class RpcCall {
    final int xid;
    final RpcProgram program;
    final int procedure;
    final ByteBuf request;
    final CompletableFuture<ByteBuf> reply = new CompletableFuture<>();
    private final AtomicBoolean done = new AtomicBoolean();
    volatile int sends;
    volatile ScheduledFuture<?> timeout;

    RpcCall(int xid, RpcProgram program, int procedure, ByteBuf request) {
        this.xid = xid;
        this.program = program;
        this.procedure = procedure;
        this.request = request;
    }

    boolean isDone() {
        return done.get();
    }

    /** Completes with the reply body (which the future's consumer must release); false if already done. */
    boolean succeed(ByteBuf body) {
        if (!done.compareAndSet(false, true)) {
            body.release();
            return false;
        }
        finish();
        if (!reply.complete(body)) {
            body.release();
        }
        return true;
    }

    boolean fail(MoverException error) {
        if (!done.compareAndSet(false, true)) {
            return false;
        }
        finish();
        reply.completeExceptionally(error);
        return true;
    }

    private void finish() {
        ScheduledFuture<?> scheduled = timeout;
        if (scheduled != null) {
            scheduled.cancel(false);
        }
        request.release();
    }

    String describe() {
        return program + " procedure " + procedure;
    }

    static MoverException lost(String what) {
        return new MoverException(ErrorCode.CONNECTION_LOST, what);
    }
}
