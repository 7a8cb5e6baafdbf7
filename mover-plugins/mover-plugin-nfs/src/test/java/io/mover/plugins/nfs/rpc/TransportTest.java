package io.mover.plugins.nfs.rpc;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class TransportTest {
    @Test
    void linuxOnX86UsesTheNativeEpollTransport() {
        assumeTrue(System.getProperty("os.name").equals("Linux") && System.getProperty("os.arch").equals("amd64"), "native epoll ships for Linux x86_64 only");
        // the native library is packaged with the plugin: a missing or mismatched one would fall back to NIO silently
        assertThat(Transport.name()).isEqualTo("epoll");
    }
}
