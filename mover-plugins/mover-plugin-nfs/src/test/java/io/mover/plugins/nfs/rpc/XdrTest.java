package io.mover.plugins.nfs.rpc;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class XdrTest {
    @Test
    void opaqueDataIsPaddedToFourBytesAndReadBack() {
        ByteBuf buffer = Unpooled.buffer();
        for (int length = 0; length < 9; length++) {
            Xdr.writeOpaque(buffer, new byte[length]);
            assertThat(buffer.readableBytes() % 4).isZero();
        }
        Xdr.writeString(buffer, "Grüße");
        for (int length = 0; length < 9; length++) {
            assertThat(Xdr.readOpaque(buffer, 64)).hasSize(length);
        }
        assertThat(Xdr.readString(buffer, 255)).isEqualTo("Grüße");
        assertThat(buffer.readableBytes()).isZero();
        buffer.release();
    }

    @Test
    void aDeclaredLengthOverTheLimitOrPastTheDataIsRefused() {
        ByteBuf big = Unpooled.buffer().writeInt(65).writeZero(68);
        assertThatThrownBy(() -> Xdr.readOpaque(big, 64)).isInstanceOf(XdrException.class).hasMessageContaining("exceeds 64");
        ByteBuf truncated = Unpooled.buffer().writeInt(8).writeZero(4);
        assertThatThrownBy(() -> Xdr.readOpaque(truncated, 64)).isInstanceOf(XdrException.class).hasMessageContaining("left");
        ByteBuf hugeLength = Unpooled.buffer().writeInt(-1);
        assertThatThrownBy(() -> Xdr.readOpaque(hugeLength, Integer.MAX_VALUE)).isInstanceOf(XdrException.class);
        ByteBuf notBoolean = Unpooled.buffer().writeInt(2);
        assertThatThrownBy(() -> Xdr.readBoolean(notBoolean)).isInstanceOf(XdrException.class);
        big.release();
        truncated.release();
        hugeLength.release();
        notBoolean.release();
    }

    @Test
    void authSysCredentialsHaveTheirLengthAndFields() {
        ByteBuf buffer = Unpooled.buffer();
        new AuthSys(1000, 100, "mover").write(buffer);
        assertThat(buffer.readInt()).isEqualTo(1);
        int length = buffer.readInt();
        assertThat(length).isEqualTo(buffer.readableBytes());
        buffer.readInt();
        assertThat(Xdr.readString(buffer, 255)).isEqualTo("mover");
        assertThat(buffer.readInt()).isEqualTo(1000);
        assertThat(buffer.readInt()).isEqualTo(100);
        buffer.release();
    }
}
