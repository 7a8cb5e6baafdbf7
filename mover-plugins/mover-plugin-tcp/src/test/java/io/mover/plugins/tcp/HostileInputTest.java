package io.mover.plugins.tcp;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;

import io.mover.plugins.tcp.Message.PathRequest;
import io.mover.spi.Entry;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.RelativePath;
import io.mover.spi.Sink;
import io.mover.spi.SinkWriter;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A receiver on loopback facing senders that break the protocol: each bad connection is closed with a
 * logged reason, nothing lands outside the destination, and a well-behaved sender is served afterwards.
 */
@Timeout(60)
@ExtendWith(LeakWatch.class)
class HostileInputTest {
    @TempDir
    Path temp;

    private Path destination;
    private LoopbackPeer peer;

    @BeforeEach
    void start() throws IOException {
        destination = Files.createDirectories(temp.resolve("dst"));
        peer = new LoopbackPeer(destination, Files.createDirectories(temp.resolve("scratch")),
                Map.of("token", "s3cret", "frame-timeout", "1s", "handshake-timeout", "1s", "session-grace", "1s"), List.of());
    }

    @AfterEach
    void stop() throws IOException {
        try {
            assertAGoodSenderIsStillServed();
            try (var files = Files.list(temp)) {
                assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("dst", "scratch");
            }
        }
        finally {
            peer.close();
        }
    }

    private void assertAGoodSenderIsStillServed() {
        try (Sink sink = peer.sender("ok", Map.of("token", "s3cret", "streams", "2"), temp)) {
            byte[] bytes = new byte[100_000];
            new Random(1).nextBytes(bytes);
            RelativePath path = RelativePath.of("after.bin");
            SinkWriter writer = sink.create(path, bytes.length, Entry.file(path, bytes.length, Instant.now()));
            writer.write(0, ByteBuffer.wrap(bytes));
            writer.commit();
            assertThat(Files.readAllBytes(destination.resolve("ok/after.bin"))).isEqualTo(bytes);
        }
        catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** Sends {@code bytes} (after reading the receiver's HELLO) and returns once the receiver closed the connection. */
    private void sendAndExpectClose(byte[] bytes) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), peer.receiver.address().getPort())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(bytes);
            socket.getOutputStream().flush();
            assertClosedByPeer(socket.getInputStream());
        }
    }

    /** Reads until end of stream (the HELLO, maybe a FAILURE first); bounded by the socket timeout and a byte count. */
    private static void assertClosedByPeer(InputStream in) throws IOException {
        byte[] buffer = new byte[4096];
        long total = 0;
        try {
            for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
                total += read;
                assertThat(total).as("the receiver kept talking").isLessThan(1 << 20);
            }
        }
        catch (SocketTimeoutException e) {
            throw new AssertionError("the receiver did not close the connection", e);
        }
        catch (java.net.SocketException e) {
            // a reset is a close too
        }
    }

    @Test
    void randomBytesCloseTheConnectionWithALoggedReason() throws IOException {
        byte[] noise = new byte[8192];
        new Random(7).nextBytes(noise);
        sendAndExpectClose(noise);
        assertThat(peer.logged("closing connection from")).as(String.join("\n", peer.log)).isTrue();
    }

    @Test
    void anOversizeLengthIsRefusedWithoutReadingIt() throws IOException {
        sendAndExpectClose(new byte[] {0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff, Wire.AUTH});
        assertThat(peer.logged("the limit here is " + Wire.MAX_HANDSHAKE_FRAME)).as(String.join("\n", peer.log)).isTrue();
    }

    @Test
    void anAuthenticatedClientThatNeverFinishesAFrameIsClosedAtItsDeadline() throws Exception {
        try (Sink sink = peer.sender("", Map.of("token", "s3cret", "streams", "1"), temp)) {
            io.netty.channel.Channel channel = ((PeerSink) sink).link().channelForTests();
            channel.writeAndFlush(io.netty.buffer.Unpooled.wrappedBuffer(new byte[] {0, 0, 0, 100, Wire.STAT, 1, 2}));
            channel.closeFuture().await(Duration.ofSeconds(10).toMillis());
            assertThat(channel.isActive()).isFalse();
        }
        assertThat(peer.logged("not completed within 1000 ms")).as(String.join("\n", peer.log)).isTrue();
    }

    @Test
    void aClientThatNeverAuthenticatesIsClosed() throws IOException {
        sendAndExpectClose(new byte[0]);
        assertThat(peer.logged("no authentication within 1000 ms")).as(String.join("\n", peer.log)).isTrue();
    }

    @Test
    void aWrongTokenIsRefusedAndNotLogged() {
        assertThatThrownBy(() -> peer.sender("x", Map.of("token", "wrong"), temp)).isInstanceOfSatisfying(MoverException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.AUTHENTICATION_FAILED));
        assertThat(peer.logged("token was refused")).isTrue();
        assertThat(String.join("\n", peer.log)).doesNotContain("s3cret").doesNotContain("wrong");
        assertThat(destination.resolve("x")).doesNotExist();
    }

    @Test
    void pathsOutsideTheDestinationAreRefusedOverTheWire() {
        try (Sink sink = peer.sender("", Map.of("token", "s3cret", "streams", "1"), temp)) {
            PeerLink link = ((PeerSink) sink).link();
            for (String path : List.of("../escape", "/etc/escape", "a/../../escape", "nul\0escape", "back\\slash")) {
                assertThatThrownBy(() -> link.call(id -> new PathRequest(id, Wire.MKDIRS, path, false))).as(path)
                        .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_PATH));
            }
        }
        assertThat(temp.resolve("escape")).doesNotExist();
        assertThat(Path.of("/etc/escape")).doesNotExist();
    }

    @Test
    void aSenderIgnoringTheWindowIsClosed() throws Exception {
        try (Sink sink = peer.sender("", Map.of("token", "s3cret", "streams", "1"), temp)) {
            PeerLink link = ((PeerSink) sink).link();
            // past the stream's own window: straight onto the channel, as a sender ignoring the window would
            io.netty.channel.Channel channel = link.channelForTests();
            for (int i = 0; i < 40; i++) {
                channel.write(new PathRequest(1000 + i, Wire.STAT, "nothing-" + i, false));
            }
            channel.flush();
            channel.closeFuture().await(Duration.ofSeconds(10).toMillis());
            assertThat(channel.isActive()).isFalse();
        }
        assertThat(peer.logged("requests in flight")).as(String.join("\n", peer.log)).isTrue();
    }
}
