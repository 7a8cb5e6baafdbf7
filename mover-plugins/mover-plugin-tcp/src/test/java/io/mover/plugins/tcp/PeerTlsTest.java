package io.mover.plugins.tcp;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import io.mover.spi.EndpointUri;
import io.mover.spi.Entry;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.PluginContext;
import io.mover.spi.RelativePath;
import io.mover.spi.Sink;
import io.mover.spi.SinkWriter;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * TLS over loopback, with a real JDK TLS 1.3 stack at both ends: a generated pair pinned by fingerprint,
 * certificate files with a CA and client certificates, and every mismatch refused in one line while the
 * receiver goes on serving.
 */
@Timeout(60)
@ExtendWith(LeakWatch.class)
class PeerTlsTest {
    private static final String TOKEN = "tls-and-a-token";

    @TempDir
    Path temp;

    private LoopbackPeer receiver(Map<String, String> tls) throws IOException {
        Map<String, String> config = new HashMap<>(Map.of("token", TOKEN, "handshake-timeout", "3s", "session-grace", "1s"));
        config.putAll(tls);
        return new LoopbackPeer(Files.createDirectories(temp.resolve("dst")), Files.createDirectories(temp.resolve("scratch")), config, List.of());
    }

    private Sink sender(LoopbackPeer peer, String host, Map<String, String> tls) {
        Map<String, String> config = new HashMap<>(Map.of("token", TOKEN, "streams", "2", "connect-timeout", "5s"));
        config.putAll(tls);
        TcpSinkFactory factory = new TcpSinkFactory();
        EndpointUri uri = EndpointUri.parse("tcp://" + host + ":" + peer.receiver.address().getPort() + "/in");
        return factory.create(uri, factory.configSpec().parse(config), new PluginContext("sender", temp, Clock.systemUTC(), System.getLogger("sender")));
    }

    private static byte[] send(Sink sink, String name) {
        byte[] bytes = new byte[3 * 1024 * 1024 + 11];
        new Random(name.hashCode()).nextBytes(bytes);
        RelativePath path = RelativePath.of(name);
        SinkWriter writer = sink.create(path, bytes.length, Entry.file(path, bytes.length, Instant.now()));
        for (int position = 0; position < bytes.length; position += 1 << 20) {
            writer.write(position, ByteBuffer.wrap(bytes, position, Math.min(1 << 20, bytes.length - position)));
        }
        writer.commit();
        return bytes;
    }

    @Test
    void aGeneratedPairPinnedByItsFingerprintCarriesFilesAndSurvivesARestart() throws IOException {
        Path keep = temp.resolve("tls");
        String fingerprint;
        try (LoopbackPeer peer = receiver(Map.of("tls", "true", "tls-dir", keep.toString()))) {
            fingerprint = peer.receiver.certificateFingerprint().orElseThrow();
            assertThat(fingerprint).matches("sha256:[0-9a-f]{64}");
            byte[] bytes;
            try (Sink sink = sender(peer, "127.0.0.1", Map.of("tls-fingerprint", fingerprint.toUpperCase(java.util.Locale.ROOT).replace("SHA256", "sha256")))) {
                bytes = send(sink, "a.bin");
            }
            assertThat(Files.readAllBytes(temp.resolve("dst/in/a.bin"))).isEqualTo(bytes);
        }
        assertThat(Files.readString(keep.resolve("key.pem"))).startsWith("-----BEGIN PRIVATE KEY-----");
        if (keep.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(keep.resolve("key.pem")))).isEqualTo("rw-------");
        }
        try (LoopbackPeer again = receiver(Map.of("tls", "true", "tls-dir", keep.toString()))) {
            assertThat(again.receiver.certificateFingerprint()).contains(fingerprint);
        }
    }

    @Test
    void aWrongFingerprintIsRefusedInOneLineAndTheReceiverGoesOnServing() throws IOException {
        try (LoopbackPeer peer = receiver(Map.of("tls", "true"))) {
            String wrong = "sha256:" + "ab".repeat(32);
            assertThatThrownBy(() -> sender(peer, "127.0.0.1", Map.of("tls-fingerprint", wrong)))
                    .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.AUTHENTICATION_FAILED))
                    .hasMessageContaining("TLS with the receiver at 127.0.0.1:")
                    .hasMessageContaining("the receiver's certificate is " + peer.receiver.certificateFingerprint().orElseThrow())
                    .hasMessageContaining("not the pinned " + wrong)
                    .hasMessageNotContaining("\n");
            awaitLogged(peer, "TLS handshake failed");
            assertGoodSenderServed(peer);
        }
    }

    @Test
    void aPlainSenderToATlsReceiverIsToldToUseTls() throws IOException {
        try (LoopbackPeer peer = receiver(Map.of("tls", "true"))) {
            assertThatThrownBy(() -> sender(peer, "127.0.0.1", Map.of()))
                    .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.UNSUPPORTED))
                    .hasMessageContaining("requires TLS").hasMessageContaining("--tls-fingerprint");
            awaitLogged(peer, "closed before the TLS handshake");
            assertGoodSenderServed(peer);
        }
    }

    @Test
    void aTlsSenderToAPlainReceiverIsToldTheReceiverHasNoTls() throws IOException {
        try (LoopbackPeer peer = receiver(Map.of())) {
            assertThatThrownBy(() -> sender(peer, "127.0.0.1", Map.of("tls-fingerprint", "sha256:" + "00".repeat(32))))
                    .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.UNSUPPORTED))
                    .hasMessageContaining("runs without TLS");
            try (Sink sink = sender(peer, "127.0.0.1", Map.of())) {
                send(sink, "plain.bin");
            }
        }
    }

    @Test
    void certificateFilesWithACaForTheHostAndClientCertificates() throws IOException {
        Path files = Files.createDirectories(temp.resolve("pki"));
        SelfSignedPair.PemPair server = SelfSignedPair.generate();
        SelfSignedPair.PemPair client = SelfSignedPair.generate();
        Files.writeString(files.resolve("server.pem"), server.certificate());
        Files.writeString(files.resolve("server-key.pem"), server.key());
        Files.writeString(files.resolve("client.pem"), client.certificate());
        Files.writeString(files.resolve("client-key.pem"), client.key());
        try (LoopbackPeer peer = receiver(Map.of("tls-cert", files.resolve("server.pem").toString(), "tls-key", files.resolve("server-key.pem").toString(),
                "tls-ca", files.resolve("client.pem").toString()))) {
            Map<String, String> trusted = Map.of("tls-ca", files.resolve("server.pem").toString(),
                    "tls-cert", files.resolve("client.pem").toString(), "tls-key", files.resolve("client-key.pem").toString());
            // the certificate names localhost: the CA is trusted for that name only
            byte[] bytes;
            try (Sink sink = sender(peer, "localhost", trusted)) {
                bytes = send(sink, "b.bin");
            }
            assertThat(Files.readAllBytes(temp.resolve("dst/in/b.bin"))).isEqualTo(bytes);
            assertThatThrownBy(() -> sender(peer, "127.0.0.1", trusted)).isInstanceOf(MoverException.class).hasMessageContaining("TLS with the receiver");
            // without a client certificate the receiver refuses the handshake
            assertThatThrownBy(() -> sender(peer, "localhost", Map.of("tls-ca", files.resolve("server.pem").toString())))
                    .isInstanceOf(MoverException.class);
            awaitLogged(peer, "TLS");
        }
    }

    @Test
    void badTlsSettingsFailBeforeAnythingStarts() {
        TcpSinkFactory factory = new TcpSinkFactory();
        assertThatThrownBy(() -> factory.configSpec().parse(Map.of("tls-fingerprint", "md5:12")))
                .hasMessageContaining("sha256: followed by 64 hex digits");
        assertThatThrownBy(() -> receiver(Map.of("tls-cert", temp.resolve("missing.pem").toString())))
                .isInstanceOf(MoverException.class).hasMessageContaining("tls-cert and tls-key go together");
        assertThatThrownBy(() -> receiver(Map.of("tls-cert", temp.resolve("missing.pem").toString(), "tls-key", temp.resolve("missing.key").toString())))
                .isInstanceOf(MoverException.class).hasMessageContaining("cannot read tls-cert");
    }

    private void assertGoodSenderServed(LoopbackPeer peer) {
        try (Sink sink = sender(peer, "127.0.0.1", Map.of("tls-fingerprint", peer.receiver.certificateFingerprint().orElseThrow()))) {
            send(sink, "after.bin");
        }
        assertThat(temp.resolve("dst/in/after.bin")).exists();
    }

    private static void awaitLogged(LoopbackPeer peer, String fragment) {
        for (int i = 0; i < 100 && !peer.logged(fragment); i++) {
            try {
                Thread.sleep(50);
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        assertThat(peer.logged(fragment)).as(String.join("\n", peer.log)).isTrue();
    }
}
