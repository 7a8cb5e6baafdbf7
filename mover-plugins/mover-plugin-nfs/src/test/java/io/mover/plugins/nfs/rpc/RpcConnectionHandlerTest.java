package io.mover.plugins.nfs.rpc;

import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Replies matched to calls by XID; anything that is not a reply, and oversize records, end the connection. */
class RpcConnectionHandlerTest {
    private final List<RpcCall> orphans = new ArrayList<>();
    private final List<String> reasons = new ArrayList<>();

    private EmbeddedChannel channel(RpcConnectionHandler handler) {
        return new EmbeddedChannel(new RecordMarkingDecoder(1024), handler);
    }

    private RpcConnectionHandler handler() {
        return new RpcConnectionHandler("test:2049", (calls, reason) -> {
            orphans.addAll(calls);
            reasons.add(reason);
        });
    }

    private static RpcCall call(int xid) {
        return new RpcCall(xid, RpcProgram.NFS, 1, Unpooled.buffer().writeInt(xid));
    }

    /** A record-marked accepted reply with AUTH_NONE verifier and SUCCESS, then {@code results}. */
    static ByteBuf reply(int xid, int... results) {
        ByteBuf out = Unpooled.buffer();
        out.writeInt(0x8000_0000 | (24 + 4 * results.length));
        out.writeInt(xid).writeInt(1).writeInt(0).writeInt(0).writeInt(0).writeInt(0);
        for (int result : results) {
            out.writeInt(result);
        }
        return out;
    }

    @Test
    void repliesCompleteTheirCallsInAnyOrder() {
        RpcConnectionHandler handler = handler();
        EmbeddedChannel channel = channel(handler);
        RpcCall first = call(10);
        RpcCall second = call(11);
        handler.register(first);
        handler.register(second);
        channel.writeInbound(reply(11, 222));
        channel.writeInbound(reply(10, 111));
        ByteBuf firstBody = first.reply.join();
        ByteBuf secondBody = second.reply.join();
        assertThat(firstBody.readInt()).isEqualTo(111);
        assertThat(secondBody.readInt()).isEqualTo(222);
        firstBody.release();
        secondBody.release();
        assertThat(handler.pending()).isZero();
        assertThat(channel.isActive()).isTrue();
        channel.finishAndReleaseAll();
    }

    @Test
    void aReplyForAnUnknownXidIsIgnored() {
        RpcConnectionHandler handler = handler();
        EmbeddedChannel channel = channel(handler);
        channel.writeInbound(reply(99, 1));
        assertThat(channel.isActive()).isTrue();
        channel.finishAndReleaseAll();
    }

    @Test
    void garbageDropsTheConnectionAndHandsBackTheUnansweredCalls() {
        RpcConnectionHandler handler = handler();
        EmbeddedChannel channel = channel(handler);
        RpcCall waiting = call(5);
        handler.register(waiting);
        channel.writeInbound(Unpooled.buffer().writeInt(0x8000_0008).writeInt(5).writeInt(7)); // message type 7
        assertThat(channel.isActive()).isFalse();
        assertThat(orphans).containsExactly(waiting);
        assertThat(reasons).singleElement().asString().contains("not an RPC reply");
        assertThat(handler.register(call(6))).isFalse();
        waiting.fail(new MoverException(ErrorCode.CONNECTION_LOST, "test"));
        channel.finishAndReleaseAll();
    }

    @Test
    void anOversizeReplyDropsTheConnection() {
        RpcConnectionHandler handler = handler();
        EmbeddedChannel channel = channel(handler);
        RpcCall waiting = call(5);
        handler.register(waiting);
        channel.writeInbound(Unpooled.buffer().writeInt(0x8000_0000 | 1_000_000).writeInt(5));
        assertThat(channel.isActive()).isFalse();
        assertThat(reasons).singleElement().asString().contains("exceeds the limit");
        waiting.fail(new MoverException(ErrorCode.CONNECTION_LOST, "test"));
        channel.finishAndReleaseAll();
    }

    @Test
    void aRefusedCallFailsWithTheServersReasonAndKeepsTheConnection() {
        RpcConnectionHandler handler = handler();
        EmbeddedChannel channel = channel(handler);
        RpcCall refused = call(8);
        handler.register(refused);
        channel.writeInbound(Unpooled.buffer().writeInt(0x8000_0000 | 20).writeInt(8).writeInt(1).writeInt(1).writeInt(1).writeInt(5)); // AUTH_ERROR, AUTH_TOOWEAK
        assertThat(refused.reply).isCompletedExceptionally();
        assertThat(refused.reply.exceptionNow()).isInstanceOf(MoverException.class).hasMessageContaining("AUTH_SYS");
        assertThat(channel.isActive()).isTrue();
        channel.finishAndReleaseAll();
    }
}
