package io.mover.plugins.tcp;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.file.Path;
import java.util.Map;

import io.mover.spi.LinkSink;
import io.mover.spi.Sink;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** Whether a receiver shares this machine's cores, as the sender tells {@code --codec auto} ({@link LinkSink#sameHost()}). */
class SameHostTest {
    @Test
    void loopbackAddressesAreTheSameHost() throws Exception {
        assertThat(PeerLink.sameHost(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 7411))).isTrue();
        assertThat(PeerLink.sameHost(new InetSocketAddress(InetAddress.getByName("127.0.0.2"), 7411))).isTrue();
        assertThat(PeerLink.sameHost(new InetSocketAddress(InetAddress.getByName("::1"), 7411))).isTrue();
    }

    /** An address of this host's own interfaces (the kernel carries it over loopback), when the machine has one besides loopback. */
    @Test
    void anAddressOfThisHostIsTheSameHost() throws Exception {
        InetAddress own = NetworkInterface.networkInterfaces().filter(n -> !isLoopback(n)).flatMap(NetworkInterface::inetAddresses).findFirst()
                .orElse(InetAddress.getLoopbackAddress());
        assertThat(PeerLink.sameHost(new InetSocketAddress(own, 7411))).as(own.toString()).isTrue();
    }

    /** A peer elsewhere (TEST-NET addresses, never this machine's; nothing is connected) keeps the link's model. */
    @Test
    void anotherHostIsNot() throws Exception {
        assertThat(PeerLink.sameHost(new InetSocketAddress(InetAddress.getByName("192.0.2.7"), 7411))).isFalse();
        assertThat(PeerLink.sameHost(new InetSocketAddress(InetAddress.getByName("2001:db8::7"), 7411))).isFalse();
        assertThat(PeerLink.sameHost(InetSocketAddress.createUnresolved("receiver.invalid", 7411))).isFalse();
    }

    @Test
    void aSenderToAReceiverOnLoopbackSaysSo(@TempDir Path root, @TempDir Path scratch) throws Exception {
        try (LoopbackPeer peer = new LoopbackPeer(root, scratch); Sink sender = peer.sender("inbox", Map.of(), scratch)) {
            assertThat(((LinkSink) sender).sameHost()).isTrue();
        }
    }

    private static boolean isLoopback(NetworkInterface network) {
        try {
            return network.isLoopback() || !network.isUp();
        }
        catch (SocketException e) {
            return true;
        }
    }
}
